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
/// `rt.broadcast_from_this_rank<&handler>(args...)` runs it once on every rank, the caller
/// included, forwarded down a spanning tree rooted at the caller. Handlers are free functions, or member functions
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
#include <tessera/runtime/idle_loop.hpp>
#include <tessera/runtime/node_map.hpp>
#include <tessera/runtime/outbox.hpp>
#include <tessera/runtime/rank_change.hpp>
#include <tessera/runtime/resident.hpp>
#include <tessera/runtime/target_table.hpp>
#include <tessera/runtime/timer.hpp>
#include <tessera/runtime/trace.hpp>
#include <tessera/runtime/trace_session.hpp>
#include <tessera/runtime/transport.hpp>

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace spdlog {
class logger;
}

namespace tessera {

namespace detail {
class RuntimeHooks;
}  // namespace detail

class Collectives;

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
  /// Argument-parsing failures exit the process (the default, for applications); tests that check
  /// the messages set this to false to get a tessera::Error.
  bool exit_on_flag_error = true;
};

class Runtime {
 public:
  /// Initializes this rank. Parses and removes `--tessera_` flags from argc/argv. On a bad flag
  /// prints one message (rank 0) and exits non-zero on every rank. On a help flag prints the help
  /// (rank 0), sets help_shown() and starts as usual: the program decides whether to go on.
  Runtime(int& argc, char**& argv, RuntimeOptions options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Tessera's own communicator, duplicated from the application's or from MPI_COMM_WORLD.
  MPI_Comm comm() const { return comm_; }
  /// This rank's node (the ranks sharing its memory), a dense id in [0, num_nodes()) numbered by
  /// each node's lowest rank; node_of(rank) throws std::out_of_range outside [0, size()). Found
  /// once, collectively, at start-up (node_map.hpp).
  int node() const { return nodes_.node_of(rank_); }
  int node_of(int rank) const { return nodes_.node_of(rank); }
  int num_nodes() const { return nodes_.num_nodes(); }
  const NodeMap& node_map() const { return nodes_; }
  const RuntimeFlags& flags() const { return flags_; }
  /// True when a help flag (--tessera_help, _help_transports, _help_markdown) printed its text.
  bool help_shown() const { return help_shown_; }
  /// The libfabric provider in use with --tessera_transport=ofi, or "" over MPI.
  std::string network_provider() const;
  /// The idle spin window chosen at start-up (microseconds), and how many long spins showed this
  /// rank descheduled (idle_loop.hpp).
  double idle_spin_us() const { return idle_.spin_us(); }
  unsigned long idle_spin_backoffs() const { return idle_.descheduled(); }
  spdlog::logger& log() { return *log_; }
  /// Reductions to a root or to every rank, and barriers (collectives.hpp); made on first use.
  Collectives& collectives();
  /// This rank's timeline trace (--tessera_trace), or nullptr when tracing is off.
  Tracer* tracer() const { return tracer_; }

  /// Ends the job on an error every rank found alike (call it on every rank): rank 0 prints
  /// `tessera: <message>` once, every rank exits with code 2. One rank's error goes to fatal().
  [[noreturn]] void stop(const std::string& message) const;

  /// Runs free function F(args...) on rank `dest`. A rank outside [0, size) is fatal.
  template <auto F, class... A>
  void send(int dest, A&&... args) {
    static_assert(std::is_void_v<typename detail::handler_traits<decltype(F)>::object>,
                  "send<&C::member> needs an object: use an ObjGroup proxy's send");
    send_to<F, detail::invoke_free<F>>(dest, 0, 0, std::forward<A>(args)...);
  }

  /// Runs free function F(args...) once on every rank, this one included, from this rank: not a
  /// collective (one name with collections and object groups). `broadcast` is the 1.0 name.
  template <auto F, class... A>
  void broadcast_from_this_rank(A&&... args) {
    static_assert(std::is_void_v<typename detail::handler_traits<decltype(F)>::object>,
                  "broadcast_from_this_rank<&C::member> needs an object: use an ObjGroup proxy's");
    broadcast_to<F, detail::invoke_free<F>>(0, 0, std::forward<A>(args)...);
  }
  template <auto F, class... A>
  [[deprecated("the runtime's broadcast runs from the calling rank only: call broadcast_from_this_rank")]]
  void broadcast(A&&... args) {
    broadcast_from_this_rank<F>(std::forward<A>(args)...);
  }

  /// Bytes at the front of a record buffer that send_record fills in (length and envelope).
  static constexpr std::size_t kRecordHeaderBytes = detail::Outbox::kRecordHeaderBytes;

  /// Sends every partly filled outgoing batch now (each scheduler turn does this too).
  void flush() { outbox_.flush(); }
  /// Queues `work` to run on this rank from the progress loop, after work already queued.
  void post_local(std::function<void()> work) { local_work_.push_back(std::move(work)); }
  /// One scheduler turn: receives and runs waiting messages, runs queued local work, advances
  /// sends. Returns true when it did anything.
  bool progress();

  /// Runs turns until `done()` holds, idling politely between them (idle_loop.hpp). Flushes
  /// before returning: a callback may have just queued messages, and they must not wait for a
  /// turn the application may not run before its next MPI call.
  template <class Pred>
  void run_until(Pred&& done) {
    idle_.run_until(done, [this] { return progress(); }, [this] { return transport_->await(kAwaitTries); });
    flush();
  }

  /// Collective over the current communicator, at a phase end: moves this runtime to the rank
  /// set `change` describes (rank_change.hpp gives the steps). On a rank that leaves, the runtime
  /// is left() afterwards: it sends and receives nothing again, and its destruction waits, without
  /// holding a core, until every process of the original communicator has finished. Fatal when
  /// `change` is not for this size, when called on a left runtime, or with tracing on. Returns
  /// what its steps cost here. For an expand, `merged` is the communicator of the running ranks
  /// and the new processes, made by MPI_Intercomm_merge of what MPI_Comm_spawn returned (running
  /// ranks first; the runtime takes it over; fatal when it is missing), and `handed` the caller's
  /// own keys of the JoinState, beside the listeners' (rank 0's count).
  RescaleTimes rescale(const RankChange& change, MPI_Comm merged = MPI_COMM_NULL, JoinState handed = {});
  /// True on a rank that left the run at a rescale.
  bool left() const { return left_; }
  /// True in a process that joined a running job at an expand (rank_change.hpp).
  bool joined() const { return joined_; }
  /// In a joined process: the application's communicator over the new rank set, made at the
  /// join beside the runtime's (the running ranks make theirs in the same order); the caller
  /// owns it. MPI_COMM_NULL elsewhere, and after the first call.
  MPI_Comm take_joined_app_comm() { return std::exchange(joined_app_comm_, MPI_COMM_NULL); }
  /// Collective over the old ranks of `merged` (their `old_size` first, then processes an expand
  /// started that wait in their start-up): tells those processes the run ended before they
  /// joined. They finalize MPI and exit with status 0. The caller frees `merged`.
  static void turn_away(MPI_Comm merged, int old_size, int rank);
  /// In a joined process: what the running ranks handed over under `key` (JoinState); empty when
  /// nothing was, and always empty in a process that did not join.
  std::span<const std::byte> joined_state(const std::string& key) const;
  /// How many rescales this runtime has been through (a joined process counts the job's).
  int rescales() const { return rescales_; }
  /// Ranks 0..home_ranks()-1 are the homes of elements: the size at start or after the last
  /// shrink. An expand adds ranks that are home to no element (rank_change.hpp).
  int home_ranks() const { return home_ranks_; }

  /// Seconds spent waiting in run_until since accounting was turned on, on the wall clock and the
  /// thread CPU clock (idle_clock.hpp); the instrumentation subtracts them from loads.
  double idle_seconds() const { return idle_.clock().seconds(); }
  double idle_cpu_seconds() const { return idle_.clock().cpu_seconds(); }

  /// Runs until no message is queued or in flight anywhere and all local work is done
  /// (collective: every rank must call it). Used by finalize.
  void drain();

  /// The epoch stamped on messages sent now; the termination layer sets it.
  EpochId current_epoch() const { return current_epoch_; }
  /// Counted (non-system) messages this rank has sent and handled since start.
  std::uint64_t messages_sent() const { return outbox_.counted_sent(); }
  std::uint64_t messages_handled() const { return counted_handled_; }
  /// Every message this rank has sent since start, system ones included (termination waves,
  /// collectives, broadcast trees): what a benchmark counts to show a collective's exact cost.
  std::uint64_t all_messages_sent() const { return outbox_.total_sent(); }

 private:
  // The layers' hooks (hooks.hpp): reached only through detail::RuntimeHooks, which documents them.
  friend class detail::RuntimeHooks;

  template <auto F, detail::Invoker I, class... A>
  void send_to(int dest, std::uint64_t target, std::uint16_t flags, A&&... args) {
    if (dest < 0 || dest >= size_) bad_rank(dest);
    outbox_.pack<F>(dest, detail::make_envelope<F, I>(target, flags, rank_, current_epoch_), std::forward<A>(args)...);
  }
  // Down the spanning tree rooted at this rank, then here.
  template <auto F, detail::Invoker I, class... A>
  void broadcast_to(std::uint64_t target, std::uint16_t flags, A&&... args) {
    outbox_.pack<F>(rank_, detail::make_envelope<F, I>(target, flags | Envelope::kBroadcast, rank_, current_epoch_),
                    std::forward<A>(args)...);
  }

  void register_target(std::uint64_t id, detail::Resident* object);
  // In a joined process (rescale.cpp): fatal when a target takes the id of a running ranks' live
  // target of another type, and, from its first phase end, when one of those is not created.
  void check_joined_target(std::uint64_t id, const detail::Resident& object);
  void require_joined_targets();
  [[noreturn]] void fail_joined_targets() const;
  void deliver_batch(int source, std::span<const std::byte> batch);
  void deliver(int source, std::span<const std::byte> record);
  void dispatch(const Envelope& envelope, int source, std::span<const std::byte> record, std::uint64_t flow);
  // A start-up error every rank meets alike: rethrown when `exit_on_error` is false, else printed
  // once (by rank `speaker`) before every rank exits with status 2.
  [[noreturn]] void fail_start_up(const std::string& message, int speaker, bool exit_on_error);
  [[noreturn]] void bad_rank(int dest) const;
  // The end of a process's part in a run whose rank set may have changed (rescale.cpp).
  void wait_for_every_process();
  // A process started by an expand (`marked`: argv held --tessera_elastic_joined): merges with
  // the running ranks into comm_, then waits, without holding a core, for the JoinState
  // (rescale.cpp). Returns how many ranks ran before the expand; 0 when `marked` is false.
  int join_running_job(bool marked);
  // True when argv holds --tessera_elastic_joined (before the flags are parsed out of it).
  static bool started_by_expand(int argc, char** argv);
  // Collective over comm_: this node's ranks and CPUs, and the idle policy they call for.
  void configure_idle();

  static constexpr int kAwaitTries = 16;
  static constexpr int kBatchesPerTurn = 16;

  RuntimeFlags flags_;
  bool help_shown_ = false;
  bool owns_mpi_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm origin_ = MPI_COMM_NULL;  // every process this runtime started with (rescale.cpp)
  bool left_ = false;
  bool joined_ = false;
  JoinState joined_state_;  // what the running ranks handed over, in a joined process
  MPI_Comm joined_app_comm_ = MPI_COMM_NULL;
  int rescales_ = 0;
  int home_ranks_ = 1;
  TransportOptions transport_options_;  // to build the transports again after a rescale
  std::vector<RescaleListener*> rescale_listeners_;
  int rank_ = 0;
  int size_ = 1;
  NodeMap nodes_;
  std::shared_ptr<spdlog::logger> log_;
  detail::TraceSession trace_;
  Tracer* tracer_ = nullptr;  // trace_.tracer(): the one pointer each event site tests
  detail::IdleLoop idle_;
  std::unique_ptr<Transport> transport_;
  detail::Outbox outbox_;
  std::unique_ptr<detail::Resident> collectives_;  // a Collectives, made by collectives() on first use
  std::deque<std::function<void()>> local_work_;
  std::vector<std::function<bool()>> pollers_;
  EpochId current_epoch_ = kGlobalEpoch;
  detail::TargetTable targets_;  // destroyed with the runtime, after its last drain
  std::uint64_t counted_handled_ = 0;
  std::uint64_t total_handled_ = 0;  // system messages included: what drain() balances
  std::uint64_t quiescent_sums_[2] = {~0ull, ~0ull};  // global (sent, handled) at the last drain's end
  // (sent, handled) at the last rescale's cut: the sums balance over the ranks of one rank set only.
  std::uint64_t drain_base_[2] = {0, 0};
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
void broadcast_from_this_rank(A&&... args) {
  this_runtime().broadcast_from_this_rank<F>(std::forward<A>(args)...);
}
template <auto F, class... A>
[[deprecated("tessera::broadcast runs from the calling rank only: call tessera::broadcast_from_this_rank")]]
void broadcast(A&&... args) {
  broadcast_from_this_rank<F>(std::forward<A>(args)...);
}

}  // namespace tessera
