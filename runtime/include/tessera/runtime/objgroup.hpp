#pragma once
/// Object groups: one instance of a class on every rank (vt's objgroup, Charm++'s group),
/// addressed by rank, with member-function handlers.
///
///   struct Counter { int hits = 0; void hit(int n) { hits += n; } };
///   auto group = tessera::make_objgroup<Counter>(rt);      // collective
///   group.send<&Counter::hit>(1, 5);                       // runs on rank 1's Counter
///   group.broadcast_from_this_rank<&Counter::hit>(1);                     // on every rank's Counter
///
/// The proxy travels in messages as its id and resolves to the instance of the runtime that
/// decodes the message (serial::decoding_runtime), so two runtimes in one process each find their
/// own.
/// A message that reaches a rank before that rank created its instance is held until it does.
#include <tessera/runtime/runtime.hpp>
#include <tessera/runtime/hooks.hpp>

namespace tessera {

namespace detail {
// Invoker of member handler F on the target T: a Resident registered as itself (the termination
// layer's epoch table) or an object group's instance of T.
template <auto F, class T>
void invoke_member(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
  using traits = handler_traits<decltype(F)>;
  T* self;
  if constexpr (std::is_base_of_v<Resident, T>) self = tessera::detail::hooks(rt).target<T>(envelope.target);
  else self = &tessera::detail::hooks(rt).target<GroupInstance<T>>(envelope.target)->instance;
  std::apply([self](auto&&... a) { (self->*F)(std::forward<decltype(a)>(a)...); },
             Decoder<typename traits::params>::decode(payload, rt));
}
}  // namespace detail

template <class T>
class ObjGroup {
 public:
  ObjGroup() = default;
  ObjGroup(Runtime& rt, std::uint64_t id) : rt_(&rt), id_(id) {}
  // User-provided copies make the proxy non-trivially copyable on purpose: as a message argument
  // it then travels through save/load as its id, not as its bytes (serialize.hpp copies trivially
  // copyable arguments as bytes, which for the runtime pointer would be the sender's).
  // noexcept, so that an element holding a proxy moves (not copies) when a vector of them grows.
  ObjGroup(const ObjGroup& other) noexcept : rt_(other.rt_), id_(other.id_) {}
  ObjGroup& operator=(const ObjGroup& other) noexcept {
    rt_ = other.rt_;
    id_ = other.id_;
    return *this;
  }

  std::uint64_t id() const { return id_; }
  /// This rank's instance.
  T* local() const {
    auto* held = tessera::detail::hooks(*rt_).target<detail::GroupInstance<T>>(id_);
    return held == nullptr ? nullptr : &held->instance;
  }

  /// Runs member handler F(args...) on rank `dest`'s instance.
  template <auto F, class... A>
  void send(int dest, A&&... args) const {
    check<F>();
    tessera::detail::hooks(*rt_).send_to<F, detail::invoke_member<F, T>>(dest, id_, 0, std::forward<A>(args)...);
  }

  /// Runs member handler F(args...) on every rank's instance, this one included, from the rank
  /// that calls it: not a collective (the name a collection's broadcast has too).
  template <auto F, class... A>
  void broadcast_from_this_rank(A&&... args) const {
    check<F>();
    tessera::detail::hooks(*rt_).broadcast_to<F, detail::invoke_member<F, T>>(id_, 0, std::forward<A>(args)...);
  }
  /// The name before 1.1, deprecated for one release.
  template <auto F, class... A>
  [[deprecated("an object group's broadcast runs from the calling rank only: call broadcast_from_this_rank")]]
  void broadcast(A&&... args) const {
    broadcast_from_this_rank<F>(std::forward<A>(args)...);
  }

  template <class Archive>
  void save(Archive& archive) const {
    archive(id_);
  }
  /// Binds to the runtime decoding the message or state (fatal where no runtime decodes).
  template <class Archive>
  void load(Archive& archive) {
    archive(id_);
    rt_ = &serial::decoding_runtime(archive);
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
  auto instance = std::make_unique<detail::GroupInstance<T>>(std::forward<A>(args)...);
  const std::uint64_t id = tessera::detail::hooks(rt).next_collective_target_id();
  tessera::detail::hooks(rt).register_target(id, instance.get());
  tessera::detail::hooks(rt).adopt(std::move(instance));
  return ObjGroup<T>(rt, id);
}

}  // namespace tessera
