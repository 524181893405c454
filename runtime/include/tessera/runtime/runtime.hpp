#pragma once
/// The per-rank runtime: context (rank, size, communicator), active messages and the
/// scheduler's progress loop.
///
/// A Runtime is created on every rank, either standalone (it initializes and finalizes MPI) or
/// inside an MPI program (interop: the application passes its communicator, Tessera duplicates
/// it, so its messages never match the application's, and never finalizes MPI). Destroying the
/// Runtime drains outstanding work first: every message sent on any rank has been handled.
///
/// Messages: `rt.send<&handler>(rank, args...)` runs `handler(args...)` on `rank`;
/// `rt.broadcast<&handler>(args...)` runs it once on every rank, the caller included, forwarded
/// down a spanning tree rooted at the caller. Handlers are free functions, or member functions
/// of an object group (see objgroup.hpp); they need no registration. Arguments are encoded as
/// serialize.hpp describes.
///
/// Scheduling: one progress loop per rank (`progress()`, `run_until(pred)`) receives messages
/// and runs them, and runs locally posted work in FIFO order. Handlers run to completion on the
/// rank's progress thread; a handler must not block waiting for another message.
///
/// Coalescing: a message is packed straight into its destination's outgoing batch; a batch
/// leaves as one transport message when it passes `--tessera_coalesce_bytes` or at the end of
/// the current scheduler turn, whichever comes first. A reply sent from a handler therefore leaves
/// as soon as the turn's handlers have run, and a burst of small messages costs one MPI message
/// per batch instead of one each. Messages sent from application code leave at the rank's next
/// turn: end a task region with drain(), an epoch or a collective (all of which run turns) before
/// entering an SPMD region, as with any AMT runtime.
#include <tessera/runtime/buffer.hpp>
#include <tessera/runtime/envelope.hpp>
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/flags.hpp>
#include <tessera/runtime/handler_traits.hpp>
#include <tessera/runtime/idle_policy.hpp>
#include <tessera/runtime/node_map.hpp>
#include <tessera/runtime/resident.hpp>
#include <tessera/runtime/timer.hpp>
#include <tessera/runtime/trace.hpp>
#include <tessera/runtime/transport.hpp>

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace spdlog {
class logger;
}

namespace tessera {

namespace detail {
class RuntimeHooks;
}  // namespace detail

class Collectives;

/// Watches every counted message (not kSystem ones); the termination layer installs one.
class MessageObserver {
 public:
  virtual ~MessageObserver() = default;
  /// A message of `envelope.epoch` is about to leave for `dest` (also when dest is this rank).
  virtual void on_send(const Envelope& envelope, int dest) = 0;
  /// A message from `source` is about to run its handler.
  virtual void on_deliver(const Envelope& envelope, int source) = 0;
  /// Its handler has returned.
  virtual void on_delivered(const Envelope& envelope, int source) = 0;
};

struct RuntimeOptions {
  /// Interop: the application's communicator (MPI already initialized; Tessera duplicates it and
  /// leaves MPI initialized). nullptr: standalone, Tessera initializes and finalizes MPI.
  MPI_Comm app_comm = MPI_COMM_NULL;
  /// Flags of layers above the runtime, parsed together with the runtime's own.
  std::vector<FlagGroup*> flag_groups;
  /// The transport's settings; the flags (--tessera_transport, _args, --tessera_shm, ...) override them.
  TransportOptions transport;
  /// The runtime's and the trace's flags as set in code (tessera::ContextOptions); the
  /// `--tessera_` arguments, if any, are parsed over them, and both are validated as flags are.
  const RuntimeFlags* flags = nullptr;
  const TraceFlags* trace_flags = nullptr;
  /// Argument-parsing failures and --tessera_help exit the process (the default, for
  /// applications); tests that check the messages set this to false to get a tessera::Error.
  bool exit_on_flag_error = true;
};

class Runtime {
 public:
  /// Initializes this rank. Parses and removes `--tessera_` flags from argc/argv. On a bad flag
  /// prints one message (rank 0) and exits non-zero on every rank; on --tessera_help prints the
  /// flags (rank 0) and exits 0.
  Runtime(int& argc, char**& argv, RuntimeOptions options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Tessera's own communicator, duplicated from the application's or from MPI_COMM_WORLD.
  MPI_Comm comm() const { return comm_; }
  /// This rank's node (the ranks sharing its memory), a dense id in [0, num_nodes()) numbered by
  /// each node's lowest rank (node_map.hpp). Found once, collectively, when the runtime starts.
  int node() const { return nodes_.node_of(rank_); }
  /// The node of `rank`, in [0, num_nodes()); a rank outside [0, size()) throws std::out_of_range.
  int node_of(int rank) const { return nodes_.node_of(rank); }
  /// Number of nodes the communicator's ranks run on, >= 1.
  int num_nodes() const { return nodes_.num_nodes(); }
  /// The whole map: every rank's node, node sizes, each rank's place within its node.
  const NodeMap& node_map() const { return nodes_; }
  const RuntimeFlags& flags() const { return flags_; }
  /// The libfabric provider in use with --tessera_transport=ofi (the one chosen when the key
  /// `provider` was left empty), or "" over MPI.
  std::string network_provider() const;
  /// The idle spin window in microseconds: --tessera_idle_spin_us, or what auto chose for this node
  /// at start-up (the window of a rank with a core of its own, while it is not descheduled).
  double idle_spin_us() const { return idle_spin_us_; }
  /// How many long spins showed this rank being descheduled, so that it spun the shared window
  /// for a while (idle_policy.hpp); always 0 with a window set by hand.
  unsigned long idle_spin_backoffs() const { return spin_.descheduled(); }
  spdlog::logger& log() { return *log_; }
  Collectives& collectives() { return *collectives_; }
  /// This rank's timeline trace (--tessera_trace), or nullptr when tracing is off. Layers above
  /// record their own events through it (epochs, phases, the LB manager's steps).
  Tracer* tracer() const { return tracer_; }

  /// Ends the job on an error every rank found alike (the same flags, the same checkpoint
  /// manifest): call it on every rank. Rank 0 prints `tessera: <message>` once and every rank
  /// exits with code 2, without MPI_Abort. An error only one rank can see goes to fatal() instead.
  [[noreturn]] void stop(const std::string& message) const;

  /// Runs free function F(args...) on rank `dest`. A rank outside [0, size) is fatal.
  template <auto F, class... A>
  void send(int dest, A&&... args) {
    static_assert(std::is_void_v<typename detail::handler_traits<decltype(F)>::object>,
                  "send<&C::member> needs an object: use an ObjGroup proxy's send");
    send_to<F, detail::invoke_free<F>>(dest, 0, 0, std::forward<A>(args)...);
  }

  /// Runs free function F(args...) once on every rank, this one included.
  template <auto F, class... A>
  void broadcast(A&&... args) {
    static_assert(std::is_void_v<typename detail::handler_traits<decltype(F)>::object>,
                  "broadcast<&C::member> needs an object: use an ObjGroup proxy's broadcast");
    broadcast_to<F, detail::invoke_free<F>>(0, 0, std::forward<A>(args)...);
  }

  /// Bytes at the front of a record buffer that send_record fills in: the record's 64-bit length
  /// and its envelope.
  static constexpr std::size_t kRecordHeaderBytes = sizeof(std::uint64_t) + sizeof(Envelope);

  /// Sends every partly filled outgoing batch now (each scheduler turn does this too).
  void flush();

  /// Queues `work` to run on this rank from the progress loop, after work already queued.
  void post_local(std::function<void()> work) { local_work_.push_back(std::move(work)); }

  /// One scheduler turn: receives and runs waiting messages, runs queued local work, advances
  /// sends. Returns true when it did anything.
  bool progress();

  /// Runs the progress loop until `done()` is true, idling politely between turns. Flushes
  /// before returning: `done()` may already hold when a callback has just queued messages (a
  /// collective completing on arrival of the last partial), and they must not wait for a turn
  /// that the application may not run before its next MPI call.
  template <class Pred>
  void run_until(Pred&& done) {
    IdleBackoff idle = make_idle();
    while (!done()) {
      if (progress()) {
        idle.reset();
      } else {
        if (!idle_open_ && (idle_wall_clock_ || idle_cpu_clock_ || tracer_)) open_idle();
        // While spinning, test the network alone a few times between whole turns: the turn's
        // housekeeping would otherwise delay noticing a message.
        if (idle.spinning() && transport_->await(kAwaitTries)) continue;
        idle.wait();
      }
    }
    if (idle_open_) close_idle();
    flush();
  }

  /// Seconds this rank has spent waiting for work in run_until (and what uses it) since
  /// accounting was turned on, on the wall clock and on the thread CPU clock (spinning costs CPU,
  /// sleeping does not). The instrumentation subtracts them so waiting is not charged as load. A
  /// wait starts at the first turn that finds nothing and ends when a turn finds work, before that
  /// work runs; the clocks are read only then, never on every empty turn.
  double idle_seconds() const { return idle_tsc_ ? idle_wall_ * idle_seconds_per_tick() : idle_wall_; }
  double idle_cpu_seconds() const { return idle_cpu_; }

  /// Runs until no message is queued or in flight anywhere and all local work is done
  /// (collective: every rank must call it). Used by finalize.
  void drain();

  /// The epoch stamped on messages sent now; the termination layer sets it.
  EpochId current_epoch() const { return current_epoch_; }

  /// Counted (non-system) messages this rank has sent and handled since start.
  std::uint64_t messages_sent() const { return counted_sent_; }
  std::uint64_t messages_handled() const { return counted_handled_; }

 private:
  // The layers' hooks (hooks.hpp): reached only through detail::RuntimeHooks.
  friend class detail::RuntimeHooks;
  friend class Collectives;

  /// Low-level send used by the layers above: handler F delivered by invoker I, to object
  /// `target` (0: none), with extra envelope `flags` (e.g. Envelope::kSystem).
  template <auto F, detail::Invoker I, class... A>
  void send_to(int dest, std::uint64_t target, std::uint16_t flags, A&&... args) {
    if (dest < 0 || dest >= size_) bad_rank(dest);
    pack<F, I>(dest, target, flags, rank_, std::forward<A>(args)...);
  }

  /// Low-level broadcast: down the spanning tree rooted at this rank, then here.
  template <auto F, detail::Invoker I, class... A>
  void broadcast_to(std::uint64_t target, std::uint16_t flags, A&&... args) {
    pack<F, I>(rank_, target, flags | Envelope::kBroadcast, rank_, std::forward<A>(args)...);
  }

  /// An empty record for send_record: its size is kRecordHeaderBytes (room the runtime fills in)
  /// and it has room for `payload_bytes` more without growing. Large buffers come from the
  /// transport's pool, so the pages are usually mapped already.
  Buffer record_buffer(std::size_t payload_bytes) {
    Buffer record = transport_->acquire(kRecordHeaderBytes + payload_bytes);
    record.resize(kRecordHeaderBytes);
    return record;
  }

  /// Low-level send of one record whose payload the caller has encoded (serial::encode of F's
  /// parameters, in order) after the first kRecordHeaderBytes of `record` (see record_buffer).
  /// The record leaves as its own transport message, after everything already queued for
  /// `dest`, and is never copied: for payloads much larger than --tessera_coalesce_bytes, where
  /// copying into a batch costs more than the message. A rank outside [0, size) is fatal.
  template <auto F, detail::Invoker I>
  void send_record(int dest, std::uint64_t target, std::uint16_t flags, Buffer&& record) {
    if (dest < 0 || dest >= size_) bad_rank(dest);
    send_whole(dest, make_envelope<F, I>(target, flags, rank_), std::move(record));
  }

  /// send_record for one large record whose payload `encode(Buffer&)` appends to the record it is
  /// given; `payload_bytes` is the payload's exact size (or a lower bound). Where the transport
  /// offers room to `dest` in place (Transport::reserve: the receiver's ring on the same node),
  /// the payload is encoded straight into it, which saves copying the whole record there: a
  /// migrated element's state is then copied twice (encoded, decoded) instead of three times.
  /// Same order and counting as send_record. A rank outside [0, size) is fatal.
  template <auto F, detail::Invoker I, class Encode>
  void send_encoded(int dest, std::uint64_t target, std::uint16_t flags, std::size_t payload_bytes,
                    Encode&& encode) {
    if (dest < 0 || dest >= size_) bad_rank(dest);
    const Envelope envelope = make_envelope<F, I>(target, flags, rank_);
    if (dest != rank_) {
      flush_to(dest);  // what was queued for dest before leaves first
      const std::size_t capacity = kRecordHeaderBytes + payload_bytes;
      if (std::byte* room = transport_->reserve(dest, capacity)) {
        Buffer record = Buffer::borrowed(room, capacity);
        record.resize(kRecordHeaderBytes);
        encode(record);
        if (record.data() == room) {
          stamp_whole(dest, envelope, record);
          transport_->commit(dest, record.size());
          return;
        }
        // The payload outgrew its lower bound: the record moved into a buffer of its own.
        send_whole(dest, envelope, std::move(record));
        return;
      }
    }
    Buffer record = record_buffer(payload_bytes);
    encode(record);
    send_whole(dest, envelope, std::move(record));
  }

  /// Adds a function the progress loop calls every turn (layers above use it for timed work,
  /// such as starting a termination wave after a back-off). It returns true when it did work.
  /// Keep it cheap: it runs on every turn. Returns a handle for remove_poller.
  std::size_t add_poller(std::function<bool()> poller) {
    pollers_.push_back(std::move(poller));
    return pollers_.size() - 1;
  }
  /// Stops calling the poller (its owner is going away).
  void remove_poller(std::size_t handle) { pollers_[handle] = nullptr; }

  void set_current_epoch(EpochId epoch) { current_epoch_ = epoch; }

  /// Installs the observer of counted messages (nullptr removes it).
  void set_observer(MessageObserver* observer) { observer_ = observer; }

  /// Registers the object that messages with envelope target `id` run on (object groups,
  /// collections). Messages that arrived for it earlier run from the next scheduler turn, in
  /// arrival order and before any that arrive later.
  void register_target(std::uint64_t id, detail::Resident* object);
  void unregister_target(std::uint64_t id);
  /// Keeps `object` alive until the runtime is destroyed (collections, object group instances).
  void adopt(std::unique_ptr<detail::Resident> object) { owned_.push_back(std::move(object)); }
  /// The object registered under `id`, or nullptr.
  detail::Resident* find_target(std::uint64_t id) const {
    auto it = targets_.find(id);
    return it == targets_.end() ? nullptr : it->second;
  }
  /// A new id for a collectively created target: the same on every rank when every rank creates
  /// its targets in the same order.
  std::uint64_t next_collective_target_id() { return ++collective_targets_; }

  // The layers' per-runtime services, one per type (hooks.hpp: service<S>()).
  std::unordered_map<const detail::ServiceKey*, detail::Resident*> services_;
  /// Turns on idle accounting on the wall clock and/or the thread CPU clock (off by default: each
  /// clock costs two reads per wait, and a wait ends on the path of every message's latency).
  /// Calls accumulate; the instrumentation turns on the clock it measures loads with.
  void account_idle(bool wall_clock, bool cpu_clock) {
    if (wall_clock && !idle_wall_clock_) {
      // The wall clock's waits are timed on the TSC where it is a wall clock: a wait ends on the
      // path of a message's latency, and the TSC costs less than half of clock_gettime. The
      // ticks become seconds by the ratio of wall time to ticks since this call.
      idle_tsc_ = invariant_tsc();
      idle_calibration_wall_ = wall_time();
      idle_calibration_ticks_ = read_tsc();
    }
    idle_wall_clock_ = idle_wall_clock_ || wall_clock;
    idle_cpu_clock_ = idle_cpu_clock_ || cpu_clock;
  }

  // A batch is a sequence of records: a 64-bit length, then the envelope and the arguments.
  template <auto F, detail::Invoker I, class... A>
  void pack(int dest, std::uint64_t target, std::uint16_t flags, int root, A&&... args) {
    using params = typename detail::handler_traits<decltype(F)>::params;
    using encoder = detail::Encoder<params>;
    const Envelope envelope = make_envelope<F, I>(target, flags, root);
    // Room for the whole record up front: a large one then takes a pooled buffer of its size
    // instead of growing a small batch (a fresh allocation and a copy).
    Buffer& batch = outbox(dest, sizeof(std::uint64_t) + sizeof(Envelope) + encoder::size_hint(args...));
    const std::size_t start = batch.size();
    batch.grow(sizeof(std::uint64_t));
    batch.append(&envelope, sizeof envelope);
    encoder::encode(batch, std::forward<A>(args)...);
    close_record(dest, batch, start, envelope);
  }

  template <auto F, detail::Invoker I>
  Envelope make_envelope(std::uint64_t target, std::uint16_t flags, int root) const {
    Envelope envelope;
    envelope.handler = detail::handler_id<F, I>();
    envelope.flags = flags;
    envelope.root = root;
    envelope.epoch = current_epoch_;
    envelope.target = target;
    return envelope;
  }

  void open_idle() {
    idle_open_ = true;
    if (tracer_) [[unlikely]]
      tracer_->begin_idle();
    if (idle_wall_clock_) idle_wall_start_ = idle_wall_now();
    if (idle_cpu_clock_) idle_cpu_start_ = thread_cpu_time();
  }
  void close_idle() {
    idle_open_ = false;
    if (tracer_) [[unlikely]]
      tracer_->end();
    if (idle_wall_clock_) idle_wall_ += idle_wall_now() - idle_wall_start_;
    if (idle_cpu_clock_) idle_cpu_ += thread_cpu_time() - idle_cpu_start_;
  }
  double idle_wall_now() const { return idle_tsc_ ? read_tsc() : wall_time(); }
  double idle_seconds_per_tick() const {
    const double ticks = read_tsc() - idle_calibration_ticks_;
    return ticks > 0 ? (wall_time() - idle_calibration_wall_) / ticks : 0.0;
  }
  // Called by progress() where a turn finds work.
  void found_work() {
    if (idle_open_) close_idle();
  }

  Buffer& outbox(int dest, std::size_t room);
  void close_record(int dest, Buffer& batch, std::size_t start, const Envelope& envelope);
  void copy_record(int dest, std::span<const std::byte> record);
  void send_whole(int dest, const Envelope& envelope, Buffer&& record);
  // Writes the record's length and envelope into its first kRecordHeaderBytes and counts the send.
  void stamp_whole(int dest, const Envelope& envelope, Buffer& record);
  void flush_to(int dest);
  void deliver_batch(int source, std::span<const std::byte> batch);
  void deliver(int source, std::span<const std::byte> record);
  void dispatch(const Envelope& envelope, int source, std::span<const std::byte> record, std::uint64_t flow);
  void start_trace(bool exit_on_error);
  // A start-up error that every rank meets alike: rethrown when `exit_on_error` is false, else
  // printed once (rank 0) before every rank exits with status 2.
  [[noreturn]] void fail_start_up(const Error& error, bool exit_on_error);
  void finish_trace();
  [[noreturn]] void bad_rank(int dest) const;
  IdleBackoff make_idle() {
    return IdleBackoff(spin_, flags_.idle_yield_us, flags_.idle_sleep_max_us);
  }

  static constexpr int kAwaitTries = 16;
  static constexpr int kBatchesPerTurn = 16;

  struct Parked {
    int source;
    Buffer record;
    std::uint64_t flow;  // the trace's flow id of the record, 0: none
  };

  RuntimeFlags flags_;
  TraceFlags trace_flags_;
  std::unique_ptr<Tracer> trace_;
  Tracer* tracer_ = nullptr;  // trace_.get(): the one pointer each event site tests
  double idle_spin_us_ = RuntimeFlags::kIdleSpinSharedUs;  // the flag, with auto resolved
  SpinGovernor spin_{RuntimeFlags::kIdleSpinSharedUs, RuntimeFlags::kIdleSpinSharedUs};
  bool owns_mpi_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  NodeMap nodes_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<Collectives> collectives_;
  std::vector<Buffer> outboxes_;   // per destination rank; this rank's own is its local inbox
  std::vector<int> unflushed_;     // ranks whose outbox holds records
  std::deque<Buffer> local_batches_;
  std::deque<std::function<void()>> local_work_;
  std::vector<std::function<bool()>> pollers_;
  EpochId current_epoch_ = kGlobalEpoch;
  MessageObserver* observer_ = nullptr;
  std::unordered_map<std::uint64_t, detail::Resident*> targets_;
  std::unordered_map<std::uint64_t, std::vector<Parked>> parked_;
  std::uint64_t collective_targets_ = 0;
  std::vector<std::unique_ptr<detail::Resident>> owned_;  // destroyed with the runtime, after its last drain
  std::uint64_t counted_sent_ = 0;
  std::uint64_t counted_handled_ = 0;
  double idle_wall_ = 0;  // seconds, or TSC ticks when idle_tsc_
  double idle_cpu_ = 0;
  double idle_wall_start_ = 0;
  double idle_cpu_start_ = 0;
  bool idle_wall_clock_ = false;
  bool idle_cpu_clock_ = false;
  bool idle_tsc_ = false;  // the wall clock's waits are timed in TSC ticks
  double idle_calibration_wall_ = 0;
  double idle_calibration_ticks_ = 0;
  bool idle_open_ = false;  // a wait began in run_until and no turn has found work since
  std::uint64_t total_sent_ = 0;     // system messages included: what drain() balances
  std::uint64_t total_handled_ = 0;
  std::uint64_t quiescent_sums_[2] = {~0ull, ~0ull};  // global (sent, handled) at the last drain's end
};

/// The runtime whose scheduler turn is running on the calling thread: inside a handler (or work
/// posted with post_local, or a poller) it is the runtime that delivered it, so two runtimes in
/// one process each find themselves. There is no process-wide runtime: called outside a
/// scheduler turn it is fatal; code there holds its Runtime (or tessera::Context) and uses it.
Runtime& this_runtime();

/// From inside a handler: runs free function F(args...) on `dest` through this_runtime().
template <auto F, class... A>
void send(int dest, A&&... args) {
  this_runtime().send<F>(dest, std::forward<A>(args)...);
}

/// From inside a handler: runs free function F(args...) once on every rank through this_runtime().
template <auto F, class... A>
void broadcast(A&&... args) {
  this_runtime().broadcast<F>(std::forward<A>(args)...);
}

}  // namespace tessera
