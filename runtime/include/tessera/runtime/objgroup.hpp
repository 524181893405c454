#pragma once
/// Object groups: one instance of a class on every rank (vt's objgroup, Charm++'s group),
/// addressed by rank, with member-function handlers.
///
///   struct Counter { int hits = 0; void hit(int n) { hits += n; } };
///   auto group = tessera::make_objgroup<Counter>(rt);      // collective
///   group.send<&Counter::hit>(1, 5);                       // runs on rank 1's Counter
///   group.broadcast<&Counter::hit>(1);                     // on every rank's Counter
///
/// The proxy travels in messages as its id and resolves to the local instance at the target.
/// A message that reaches a rank before that rank created its instance is held until it does.
#include <tessera/runtime/runtime.hpp>
#include <tessera/runtime/hooks.hpp>

namespace tessera {

namespace detail {
template <auto F>
void invoke_member(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
  using traits = handler_traits<decltype(F)>;
  using object = typename traits::object;
  auto* self = static_cast<object*>(tessera::detail::hooks(rt).find_target(envelope.target));
  std::apply([self](auto&&... a) { (self->*F)(std::forward<decltype(a)>(a)...); },
             Decoder<typename traits::params>::decode(payload));
}
}  // namespace detail

template <class T>
class ObjGroup {
 public:
  ObjGroup() = default;
  ObjGroup(Runtime& rt, std::uint64_t id) : rt_(&rt), id_(id) {}

  std::uint64_t id() const { return id_; }
  /// This rank's instance.
  T* local() const { return static_cast<T*>(tessera::detail::hooks(*rt_).find_target(id_)); }

  /// Runs member handler F(args...) on rank `dest`'s instance.
  template <auto F, class... A>
  void send(int dest, A&&... args) const {
    check<F>();
    tessera::detail::hooks(*rt_).send_to<F, detail::invoke_member<F>>(dest, id_, 0, std::forward<A>(args)...);
  }

  /// Runs member handler F(args...) on every rank's instance, this one included.
  template <auto F, class... A>
  void broadcast(A&&... args) const {
    check<F>();
    tessera::detail::hooks(*rt_).broadcast_to<F, detail::invoke_member<F>>(id_, 0, std::forward<A>(args)...);
  }

  template <class Archive>
  void serialize(Archive& archive) {
    archive(id_);
    rt_ = &this_runtime();
  }

 private:
  template <auto F>
  static constexpr void check() {
    static_assert(std::is_base_of_v<typename detail::handler_traits<decltype(F)>::object, T>,
                  "the handler must be a member function of the group's class");
  }

  Runtime* rt_ = nullptr;
  std::uint64_t id_ = 0;
};

/// Creates the group collectively: every rank constructs its instance with `args`, in the same
/// order relative to other collective creations.
template <class T, class... A>
ObjGroup<T> make_objgroup(Runtime& rt, A&&... args) {
  auto instance = std::make_shared<T>(std::forward<A>(args)...);
  const std::uint64_t id = tessera::detail::hooks(rt).next_collective_target_id();
  tessera::detail::hooks(rt).register_target(id, instance.get());
  tessera::detail::hooks(rt).adopt(std::move(instance));
  return ObjGroup<T>(rt, id);
}

}  // namespace tessera
