#pragma once
/// The runtime's hooks for the layers above it: low-level sends to registered targets, the
/// target table, pollers, the message observer, the current epoch and idle accounting.
///
/// They are how termination, collections, object groups and the LB manager are built, not how an
/// application talks to Tessera, so Runtime keeps them private (runtime.hpp shows the user API:
/// send, broadcast, collectives, progress) and only this access type reaches them:
///
///   tessera::detail::hooks(rt).send_to<F, I>(dest, target, flags, args...);
///
/// Code that names `detail::hooks` is a layer's own source or header; application code has no
/// reason to.
#include <tessera/runtime/resident.hpp>
#include <tessera/runtime/runtime.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace tessera::detail {

class RuntimeHooks {
 public:
  explicit RuntimeHooks(Runtime& rt) : rt_(rt) {}

  /// Handler F delivered by invoker I to object `target` (0: none) on rank `dest`, with extra
  /// envelope `flags` (e.g. Envelope::kSystem). A rank outside [0, size) is fatal.
  template <auto F, Invoker I, class... A>
  void send_to(int dest, std::uint64_t target, std::uint16_t flags, A&&... args) {
    rt_.send_to<F, I>(dest, target, flags, std::forward<A>(args)...);
  }
  /// The same to every rank, down the spanning tree rooted here, then here.
  template <auto F, Invoker I, class... A>
  void broadcast_to(std::uint64_t target, std::uint16_t flags, A&&... args) {
    rt_.broadcast_to<F, I>(target, flags, std::forward<A>(args)...);
  }
  /// An empty record for send_record, with room for `payload_bytes` (Runtime::kRecordHeaderBytes
  /// at its front are the runtime's).
  Buffer record_buffer(std::size_t payload_bytes) { return rt_.record_buffer(payload_bytes); }
  /// One record whose payload the caller encoded, sent as its own transport message, uncopied.
  template <auto F, Invoker I>
  void send_record(int dest, std::uint64_t target, std::uint16_t flags, Buffer&& record) {
    rt_.send_record<F, I>(dest, target, flags, std::move(record));
  }

  /// One record whose payload `encode(Buffer&)` appends, encoded in place where the transport
  /// allows (Runtime::send_encoded).
  template <auto F, Invoker I, class Encode>
  void send_encoded(int dest, std::uint64_t target, std::uint16_t flags, std::size_t payload_bytes, Encode&& encode) {
    rt_.send_encoded<F, I>(dest, target, flags, payload_bytes, std::forward<Encode>(encode));
  }

  /// A function the progress loop calls every turn; returns true when it did work.
  std::size_t add_poller(std::function<bool()> poller) { return rt_.add_poller(std::move(poller)); }
  void remove_poller(std::size_t handle) { rt_.remove_poller(handle); }
  /// The epoch stamped on messages sent from now on (the termination layer's).
  void set_current_epoch(EpochId epoch) { rt_.set_current_epoch(epoch); }
  /// The observer of counted messages (nullptr removes it).
  void set_observer(MessageObserver* observer) { rt_.set_observer(observer); }
  /// Turns on idle accounting on either clock (the instrumentation's).
  void account_idle(bool wall_clock, bool cpu_clock) { rt_.account_idle(wall_clock, cpu_clock); }

  /// The object messages with envelope target `id` run on; earlier messages for it are released.
  void register_target(std::uint64_t id, Resident* object) { rt_.register_target(id, object); }
  void unregister_target(std::uint64_t id) { rt_.unregister_target(id); }
  Resident* find_target(std::uint64_t id) const { return rt_.find_target(id); }
  /// The target registered under `id` as the T its registrar made it (T derives from Resident),
  /// or nullptr: a static_cast, as cheap as the lookup.
  template <class T>
  T* target(std::uint64_t id) const {
    static_assert(std::is_base_of_v<Resident, T>, "message targets derive from detail::Resident");
    return static_cast<T*>(rt_.find_target(id));
  }
  /// Keeps `object` alive until the runtime is destroyed.
  void adopt(std::unique_ptr<Resident> object) { rt_.adopt(std::move(object)); }
  /// The same id on every rank for targets every rank creates in the same order.
  std::uint64_t next_collective_target_id() { return rt_.next_collective_target_id(); }

  /// This runtime's service of type S (the termination layer, the phase manager), or nullptr: one
  /// per type and per runtime, so two runtimes in one process never share one. Whoever creates a
  /// service registers it and owns it; it unregisters (nullptr) before it goes.
  template <class S>
  S* service() const {
    static_assert(std::is_base_of_v<Resident, S>, "services derive from detail::Resident");
    auto it = rt_.services_.find(&service_key<S>);
    return it == rt_.services_.end() ? nullptr : static_cast<S*>(it->second);
  }
  template <class S>
  void set_service(S* service) {
    static_assert(std::is_base_of_v<Resident, S>, "services derive from detail::Resident");
    if (service != nullptr) rt_.services_[&service_key<S>] = service;
    else rt_.services_.erase(&service_key<S>);
  }

 private:
  Runtime& rt_;
};

inline RuntimeHooks hooks(Runtime& rt) { return RuntimeHooks(rt); }

}  // namespace tessera::detail
