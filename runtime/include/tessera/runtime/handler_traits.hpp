#pragma once
/// Compile-time facts about handlers: their parameter lists and the invokers that decode a
/// message into those parameters and call them.
#include <tessera/runtime/envelope.hpp>
#include <tessera/runtime/serialize.hpp>

#include <tuple>
#include <type_traits>

namespace tessera::detail {

template <class F>
struct handler_traits;

template <class R, class... Args>
struct handler_traits<R (*)(Args...)> {
  using object = void;
  using params = std::tuple<std::decay_t<Args>...>;
  static constexpr bool takes_runtime = false;
};
/// A free handler whose first parameter is `Runtime&` receives the runtime it runs on; the
/// sender passes only the remaining arguments.
template <class R, class... Args>
struct handler_traits<R (*)(Runtime&, Args...)> {
  using object = void;
  using params = std::tuple<std::decay_t<Args>...>;
  static constexpr bool takes_runtime = true;
};
template <class R, class... Args>
struct handler_traits<R (*)(Runtime&, Args...) noexcept> : handler_traits<R (*)(Runtime&, Args...)> {};
template <class R, class... Args>
struct handler_traits<R (*)(Args...) noexcept> : handler_traits<R (*)(Args...)> {};
template <class R, class C, class... Args>
struct handler_traits<R (C::*)(Args...)> {
  using object = C;
  using params = std::tuple<std::decay_t<Args>...>;
};
template <class R, class C, class... Args>
struct handler_traits<R (C::*)(Args...) noexcept> : handler_traits<R (C::*)(Args...)> {};

/// Decodes the payload into F's parameters, in order, for runtime `rt` (proxies bind to it).
template <class Params>
struct Decoder;
template <class... Ps>
struct Decoder<std::tuple<Ps...>> {
  static std::tuple<Ps...> decode(std::span<const std::byte> payload, Runtime& rt) {
    serial::Reader reader(payload, &rt);
    // Braced initialization evaluates left to right, matching the encoding order.
    return std::tuple<Ps...>{serial::decode<Ps>(reader)...};
  }
};

/// Encodes `args` as the parameters of a handler with parameter tuple Params.
template <class Params>
struct Encoder;
template <class... Ps>
struct Encoder<std::tuple<Ps...>> {
  static constexpr std::size_t fixed_size = serial::fixed_size<Ps...>();
  /// Bytes the encoded arguments will take (a lower bound when one goes through cereal).
  template <class... A>
  static std::size_t size_hint(const A&... args) {
    return (serial::size_hint<Ps>(args) + ... + std::size_t{0});
  }
  template <class... A>
  static void encode(Buffer& out, A&&... args) {
    static_assert(sizeof...(A) == sizeof...(Ps),
                  "the number of arguments must match the handler's parameters");
    (serial::encode<Ps>(out, std::forward<A>(args)), ...);
  }
};

/// Invoker for free-function handlers.
template <auto F>
void invoke_free(Runtime& rt, const Envelope&, std::span<const std::byte> payload) {
  using traits = handler_traits<decltype(F)>;
  auto args = Decoder<typename traits::params>::decode(payload, rt);
  if constexpr (traits::takes_runtime)
    std::apply([&rt](auto&&... a) { F(rt, std::forward<decltype(a)>(a)...); }, std::move(args));
  else
    std::apply(F, std::move(args));
}

/// Invoker for member-function handlers F of the T registered as the envelope's target (objgroup.hpp).
template <auto F, class T>
void invoke_member(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload);

}  // namespace tessera::detail
