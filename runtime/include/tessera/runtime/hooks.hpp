#pragma once
/// The runtime's hooks for the layers above it: low-level sends to registered targets, the
/// target table (target_table.hpp), pollers, the message observer (outbox.hpp), the current epoch
/// and idle accounting (idle_clock.hpp, idle_loop.hpp).
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
  Buffer record_buffer(std::size_t payload_bytes) { return rt_.outbox_.record_buffer(payload_bytes); }
  /// One record whose payload the caller encoded (serial::encode of F's parameters, in order)
  /// after the first kRecordHeaderBytes of `record` (see record_buffer). It leaves as its own
  /// transport message, after everything already queued for `dest`, and is never copied: for
  /// payloads much larger than --tessera_coalesce_bytes, where copying into a batch costs more
  /// than the message. A rank outside [0, size) is fatal.
  template <auto F, Invoker I>
  void send_record(int dest, std::uint64_t target, std::uint16_t flags, Buffer&& record) {
    check_rank(dest);
    rt_.outbox_.send_whole(dest, make_envelope<F, I>(target, flags, rt_.rank_, rt_.current_epoch_), std::move(record));
  }

  /// send_record for one large record whose payload `encode(Buffer&)` appends to the record it
  /// is given; `payload_bytes` is the payload's exact size (or a lower bound). Where the transport
  /// offers room at `dest` in place (the receiver's ring on the same node) the payload is encoded
  /// straight into it: a migrated element's state is then copied twice (encoded, decoded) instead
  /// of three times. Same order and counting as send_record.
  template <auto F, Invoker I, class Encode>
  void send_encoded(int dest, std::uint64_t target, std::uint16_t flags, std::size_t payload_bytes, Encode&& encode) {
    check_rank(dest);
    rt_.outbox_.send_encoded(dest, make_envelope<F, I>(target, flags, rt_.rank_, rt_.current_epoch_), payload_bytes,
                             std::forward<Encode>(encode));
  }

  /// A function the progress loop calls every turn; returns true when it did work.
  /// Keep it cheap: it runs on every turn. Returns a handle for remove_poller.
  std::size_t add_poller(std::function<bool()> poller) {
    rt_.pollers_.push_back(std::move(poller));
    return rt_.pollers_.size() - 1;
  }
  /// Stops calling the poller (its owner is going away).
  void remove_poller(std::size_t handle) { rt_.pollers_[handle] = nullptr; }
  /// The epoch stamped on messages sent from now on (the termination layer's).
  void set_current_epoch(EpochId epoch) { rt_.current_epoch_ = epoch; }
  /// The observer of counted messages (nullptr removes it).
  void set_observer(MessageObserver* observer) { rt_.outbox_.set_observer(observer); }
  /// Turns on idle accounting on either clock (the instrumentation's).
  void account_idle(bool wall_clock, bool cpu_clock) { rt_.idle_.clock().account(wall_clock, cpu_clock); }

  /// `listener` follows this runtime's rescales (rank_change.hpp) until removed; listeners are
  /// called in the order they were added, which must be the same on every rank.
  void add_rescale_listener(RescaleListener* listener) { rt_.rescale_listeners_.push_back(listener); }
  void remove_rescale_listener(RescaleListener* listener) { std::erase(rt_.rescale_listeners_, listener); }

  /// The object messages with envelope target `id` run on; earlier messages for it are released.
  void register_target(std::uint64_t id, Resident* object) { rt_.register_target(id, object); }
  void unregister_target(std::uint64_t id) { rt_.targets_.remove(id); }
  /// In a process that joined at an expand: fatal, naming them, when collections or object groups
  /// the running ranks held at the expand are not created here yet (called at its first phase end).
  void require_joined_targets() { rt_.require_joined_targets(); }
  /// A destroyed target stays registered (a late message for it is refused there, not held),
  /// but a process that joins afterwards does not create it.
  void retire_target(std::uint64_t id) { rt_.targets_.retire(id); }
  Resident* find_target(std::uint64_t id) const { return rt_.targets_.find(id); }
  /// The target registered under `id` as the T its registrar made it (T derives from Resident),
  /// or nullptr: a static_cast, as cheap as the lookup.
  template <class T>
  T* target(std::uint64_t id) const {
    static_assert(std::is_base_of_v<Resident, T>, "message targets derive from detail::Resident");
    return static_cast<T*>(rt_.targets_.find(id));
  }
  /// Keeps `object` alive until the runtime is destroyed.
  void adopt(std::unique_ptr<Resident> object) { rt_.targets_.adopt(std::move(object)); }
  /// The same id on every rank for targets every rank creates in the same order.
  std::uint64_t next_collective_target_id() { return rt_.targets_.next_collective_id(); }

  /// This runtime's service of type S (the termination layer, the phase manager), or nullptr: one
  /// per type and per runtime, so two runtimes in one process never share one. Whoever creates a
  /// service registers it and owns it; it unregisters (nullptr) before it goes.
  template <class S>
  S* service() const {
    static_assert(std::is_base_of_v<Resident, S>, "services derive from detail::Resident");
    return static_cast<S*>(rt_.targets_.service(&service_key<S>));
  }
  template <class S>
  void set_service(S* service) {
    static_assert(std::is_base_of_v<Resident, S>, "services derive from detail::Resident");
    rt_.targets_.set_service(&service_key<S>, service);
  }

 private:
  void check_rank(int dest) const {
    if (dest < 0 || dest >= rt_.size_) rt_.bad_rank(dest);
  }
  Runtime& rt_;
};

inline RuntimeHooks hooks(Runtime& rt) { return RuntimeHooks(rt); }

}  // namespace tessera::detail
