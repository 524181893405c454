#include <tessera/runtime/runtime.hpp>
#include <tessera/runtime/spanning_tree.hpp>

#include "node_cpus.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <unistd.h>

namespace tessera {
namespace {

// The one access point (see this_runtime()): the runtime whose scheduler turn is running on this
// thread. It is set only for a turn, so two runtimes in one process (one per communicator) each
// see themselves from their own handlers, and nothing outside a turn can pick the wrong one.
thread_local Runtime* running_runtime = nullptr;

// Marks `rt` as this thread's running runtime for one scheduler turn (turns may nest).
class RunningScope {
 public:
  explicit RunningScope(Runtime* rt) : previous_(running_runtime) { running_runtime = rt; }
  ~RunningScope() { running_runtime = previous_; }
  RunningScope(const RunningScope&) = delete;
  RunningScope& operator=(const RunningScope&) = delete;

 private:
  Runtime* previous_;
};

// How every rank leaves on an error all of them found alike: one message (from `print`'s rank),
// flushed output, exit code 2. MPI is finalized only when nothing can still be in flight (start-up).
[[noreturn]] void exit_after_error(bool print, const std::string& message, bool finalize) {
  if (print) {
    std::fprintf(stderr, "tessera: %s\n", message.c_str());
    std::fflush(stderr);
  }
  std::fflush(stdout);
  if (finalize) MPI_Finalize();
  std::exit(2);
}

}  // namespace

namespace detail {
void fatal_message(const std::string& message) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  const bool mpi_up = initialized && !finalized;
  int rank = 0;
  Runtime* rt = running_runtime;
  if (rt != nullptr) rank = rt->rank();
  else if (mpi_up) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "tessera error on rank %d: %s\n", rank, message.c_str());
  std::fflush(stderr);
  if (mpi_up) MPI_Abort(rt != nullptr ? rt->comm() : MPI_COMM_WORLD, 1);
  std::_Exit(1);
}
}  // namespace detail

Runtime& this_runtime() {
  if (running_runtime == nullptr)
    fatal("this_runtime() (or tessera::send/broadcast) was called outside a handler: there is no "
          "process-wide runtime; call send or broadcast on your Runtime or tessera::Context");
  return *running_runtime;
}

namespace serial {
void no_decoding_runtime() {
  fatal("a proxy was decoded outside a message or element state that a runtime delivers (a "
        "serial::InputArchive made without a runtime): there is no process-wide runtime to bind it to");
}
}  // namespace serial

void Runtime::fail_start_up(const std::string& message, int speaker, bool exit_on_error) {
  MPI_Comm_free(&comm_);
  MPI_Comm_free(&origin_);
  if (!exit_on_error) {
    if (std::current_exception()) throw;  // from a catch block: the exception as it was
    throw Error(message);
  }
  exit_after_error(rank_ == speaker, message, owns_mpi_);
}

std::string Runtime::network_provider() const { return transport_->description(); }

void Runtime::stop(const std::string& message) const { exit_after_error(rank_ == 0, message, false); }

Runtime::Runtime(int& argc, char**& argv, RuntimeOptions options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (options.app_comm != MPI_COMM_NULL && !initialized)
    throw Error("interop mode needs MPI_Init before the Tessera runtime is created");
  // The flags are parsed before MPI_Init (parsing uses no MPI), since a group may need
  // MPI_THREAD_MULTIPLE; a bad flag is reported once every rank is up, below.
  const bool joining = started_by_expand(argc, argv);
  if (options.flags) flags_ = *options.flags;
  TraceFlags trace_flags = options.trace_flags ? *options.trace_flags : TraceFlags{};
  std::vector<FlagGroup*> groups{&flags_, &trace_flags};
  groups.insert(groups.end(), options.flag_groups.begin(), options.flag_groups.end());
  ParsedFlags parsed;
  std::string flag_error;
  try {
    parsed = parse_flags(argc, argv, groups);
  } catch (const Error& e) {
    flag_error = e.what();
  }
  MPI_Comm base = options.app_comm != MPI_COMM_NULL ? options.app_comm : MPI_COMM_WORLD;
  if (!initialized) {
    const bool multiple =
        flag_error.empty() && std::any_of(groups.begin(), groups.end(), [](const FlagGroup* g) { return g->needs_mpi_thread_multiple(); });
    int provided = MPI_THREAD_SINGLE;
    if (multiple) MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else MPI_Init(&argc, &argv);
    owns_mpi_ = true;
  }
  // A process an expand started merges with the running ranks; its `base` is only its own.
  const int running = join_running_job(joining);
  if (!joined_) MPI_Comm_dup(base, &comm_);
  MPI_Comm_dup(base, &origin_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  if (!joined_) home_ranks_ = size_;
  nodes_ = NodeMap::of(comm_);  // collective: every rank gets here, before a bad flag stops them
  // Every rank parses the same argv, so every rank gets here: one message, all exit non-zero.
  if (!flag_error.empty()) fail_start_up(flag_error, 0, options.exit_on_flag_error);
  help_shown_ = parsed.help;
  if (help_shown_ && rank_ == 0) {
    std::fputs(parsed.help_text.c_str(), stdout);
    std::fflush(stdout);
  }

  log_ = std::make_shared<spdlog::logger>("tessera", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  log_->set_pattern(fmt::format("[%H:%M:%S.%e] [tessera rank {}] [%l] %v", rank_));
  log_->set_level(spdlog::level::from_str(flags_.log_level));
  configure_idle();

  detail::freeze_handler_ids();
  if (!trace_flags.dir.empty()) {
    // Before the transport exists: the clock ping-pong uses Tessera's communicator directly.
    const detail::TraceSession::Failure failure = joined_ ? trace_.join(comm_, rank_, size_, running, rescales_, trace_flags)
                                                          : trace_.start(comm_, rank_, size_, trace_flags);
    if (failure.rank >= 0) fail_start_up(failure.message, failure.rank, options.exit_on_flag_error);
    tracer_ = trace_.tracer();
  }
  options.transport.shared_memory = options.transport.shared_memory && flags_.shm;
  if (flags_.shm_ring_bytes != 0) options.transport.ring_bytes = flags_.shm_ring_bytes;
  options.transport.network = flags_.transport;
  std::vector<std::string> deprecated;
  options.transport.network_args = flags_.network_args(&deprecated);
  if (rank_ == 0)
    for (const auto& warning : deprecated) log_->warn("{}", warning);
  transport_options_ = options.transport;
  try {
    transport_ = make_transport(comm_, options.transport);
  } catch (const Error& e) {
    // Transport set-up fails alike on every rank (the ofi provider choice is agreed collectively).
    fail_start_up(e.what(), 0, options.exit_on_flag_error);
  }
  outbox_.attach(*transport_, rank_, size_, flags_.coalesce_bytes);
  outbox_.set_tracer(tracer_);
  idle_.clock().set_tracer(tracer_);
  log_->debug("started: {} ranks, {} MPI, idle spin {} us", size_, owns_mpi_ ? "standalone" : "interop",
              idle_.spin_us());
}

void Runtime::configure_idle() {
  const detail::NodeCpus cpus = detail::node_cpus(comm_);
  idle_.configure(flags_, flags_.idle_spin_us == RuntimeFlags::kIdleSpinAuto && cpus.shared());
  if (cpus.node_rank == 0)
    log_->info("idle policy on {}: {} rank(s), {} usable CPU(s) (the ranks' affinity masks and cgroup quota): {}",
               cpus.host, cpus.node_ranks, cpus.cpus,
               flags_.idle_spin_us != RuntimeFlags::kIdleSpinAuto ? fmt::format("spin {} us, set by hand", flags_.idle_spin_us)
               : cpus.shared() ? "ranks share CPUs, short spin"
                               : "a CPU per rank, long spin until a rank is seen descheduled");
}

Runtime::~Runtime() {
  if (left_) {
    wait_for_every_process();
    if (owns_mpi_) MPI_Finalize();
    return;
  }
  drain();
  if (idle_.descheduled() != 0)
    log_->info("the idle spin was cut to {} us {} time(s): this rank was descheduled while spinning",
               RuntimeFlags::kIdleSpinSharedUs, idle_.descheduled());
  if (tracer_) {
    tracer_ = nullptr;
    outbox_.set_tracer(nullptr);
    idle_.clock().set_tracer(nullptr);
    trace_.finish(comm_, rank_, *log_);
  }
  pollers_.clear();
  collectives_.reset();
  transport_.reset();
  MPI_Comm_free(&comm_);
  wait_for_every_process();
  if (owns_mpi_) MPI_Finalize();
}

void Runtime::bad_rank(int dest) const {
  if (left_) fatal("send to rank {} from a rank that left the run at a rescale: a left runtime sends nothing", dest);
  fatal("send to rank {} is outside the communicator: valid ranks are 0..{} (size {})", dest,
        size_ - 1, size_);
}

void Runtime::deliver_batch(int source, std::span<const std::byte> batch) {
  std::size_t at = 0;
  while (at < batch.size()) {
    std::uint64_t length = 0;
    if (batch.size() - at < sizeof length) fatal("malformed batch from rank {}: truncated record length", source);
    std::memcpy(&length, batch.data() + at, sizeof length);
    at += sizeof length;
    if (length < sizeof(Envelope) || batch.size() - at < length)
      fatal("malformed batch from rank {}: record of {} bytes with {} left", source, length, batch.size() - at);
    deliver(source, std::span<const std::byte>(batch.data() + at, length));
    at += length;
  }
}

void Runtime::deliver(int source, std::span<const std::byte> record) {
  Envelope envelope;
  std::memcpy(&envelope, record.data(), sizeof envelope);
  std::uint64_t flow = 0;
  if (tracer_) [[unlikely]]
    flow = tracer_->on_receive(source);
  if (envelope.is_broadcast()) {
    // The subtree starts as soon as possible: a broadcast's local handler may run for as long as
    // a whole step (a collection broadcast runs every local element), and the children's copies
    // would otherwise wait in their outboxes until the end of this turn, serializing the ranks.
    for (int child : spanning_tree_children(rank_, envelope.root, size_, flags_.tree_fanout)) {
      outbox_.copy_record(child, record);
      outbox_.flush_to(child);
    }
  }
  dispatch(envelope, source, record, flow);
}

void Runtime::dispatch(const Envelope& envelope, int source, std::span<const std::byte> record, std::uint64_t flow) {
  const detail::HandlerEntry* entry = detail::find_handler(envelope.handler);
  if (entry == nullptr)
    fatal("rank {} received a message from rank {} for unknown handler id {}: every rank must run "
          "the same executable",
          rank_, source, envelope.handler);
  // Created collectively but not yet on this rank, or registered with earlier messages still
  // held: hold this one too, behind them, so messages to a target keep their arrival order.
  if (envelope.target != 0 && targets_.must_hold(envelope.target)) {
    Buffer copy(record.size());
    copy.append(record.data(), record.size());
    targets_.hold(envelope.target, {source, std::move(copy), flow});
    return;
  }
  const bool counted = !envelope.is_system();
  MessageObserver* observer = outbox_.observer();
  if (counted && observer != nullptr) observer->on_deliver(envelope, source);
  const EpochId outer = current_epoch_;
  current_epoch_ = envelope.epoch;
  if (tracer_) [[unlikely]]
    tracer_->begin_handler(envelope.handler, entry->name, record.size(), flow);
  try {
    entry->invoke(*this, envelope, record.subspan(sizeof(Envelope)));
  } catch (const std::exception& e) {
    fatal("handler {} threw: {}", detail::readable_handler_name(entry->name), e.what());
  } catch (...) {
    fatal("handler {} threw a non-standard exception", detail::readable_handler_name(entry->name));
  }
  if (tracer_) [[unlikely]]
    tracer_->end();
  current_epoch_ = outer;
  ++total_handled_;
  if (counted) {
    ++counted_handled_;
    if (observer != nullptr) observer->on_delivered(envelope, source);
  }
}

bool Runtime::progress() {
  if (left_) [[unlikely]]
    return false;
  const RunningScope running(this);
  bool did = false;
  if (tracer_) [[unlikely]]
    tracer_->maybe_write();
  // Messages the application sent since the last turn leave first: everything else in a turn,
  // polling above all (it drives MPI's progress engine), costs as much as a message's flight.
  flush();
  // Only what was queued when the turn began, so a handler that sends to its own rank cannot
  // starve the network.
  outbox_.flush_to(rank_);
  std::deque<Buffer>& local_batches = outbox_.local_batches();
  if (!local_batches.empty() || !local_work_.empty()) idle_.clock().found_work();
  for (std::size_t n = local_batches.size(); n > 0 && !local_batches.empty(); --n) {
    Buffer batch = std::move(local_batches.front());
    local_batches.pop_front();
    deliver_batch(rank_, batch.view());
    transport_->recycle(std::move(batch));
    did = true;
  }
  for (std::size_t n = local_work_.size(); n > 0 && !local_work_.empty(); --n) {
    auto work = std::move(local_work_.front());
    local_work_.pop_front();
    work();
    did = true;
  }
  for (auto& poller : pollers_)
    if (poller && poller()) {
      idle_.clock().found_work();  // a poller reports after its work: that work counts as waiting, a bounded error
      did = true;
    }
  flush();
  transport_->progress();
  // Receiving comes last, so a turn that delivers returns soon after its handlers: the caller's
  // predicate sees the message at once, and the housekeeping above does not stand between it and
  // the caller's next send. Batches that are already waiting are taken in the same turn (up to
  // kBatchesPerTurn), and the replies of each batch's handlers leave before the next poll.
  Incoming incoming;
  for (int i = 0; i < kBatchesPerTurn && transport_->poll(incoming); ++i) {
    idle_.clock().found_work();
    deliver_batch(incoming.source, incoming.bytes);
    transport_->release(std::move(incoming));
    flush();
    did = true;
  }
  return did;
}

void Runtime::register_target(std::uint64_t id, detail::Resident* object) {
  const bool held = targets_.add(id, object);
  if (joined_) {
    RunningScope scope(this);  // a fatal error names this rank, not the joined process's own world's
    check_joined_target(id, *object);
  }
  if (!held) return;
  // Released from the progress loop, not from inside the caller; messages that arrive before then
  // are held behind these (see dispatch).
  post_local([this, id] {
    for (detail::TargetTable::Held& held : targets_.take_held(id)) {
      Envelope envelope;
      std::memcpy(&envelope, held.record.data(), sizeof envelope);
      dispatch(envelope, held.source, held.record.view(), held.flow);
    }
  });
}

void Runtime::require_joined_targets() {
  if (!joined_ || targets_.still_expected().empty()) return;
  RunningScope scope(this);
  fail_joined_targets();
}

void Runtime::drain() {
  // Quiescence by the four-counter method: sum (sent, handled) over all ranks in waves; when
  // two consecutive waves see the same balanced sums, no message was in flight between them.
  // The last wave of the previous drain counts as the first: a drain with nothing sent since
  // (the phase end right after the application's own drain) costs one wave.
  if (left_) return;
  std::uint64_t previous[2] = {quiescent_sums_[0], quiescent_sums_[1]};
  while (true) {
    while (progress()) {
    }
    std::uint64_t local[2] = {outbox_.total_sent() - drain_base_[0], total_handled_ - drain_base_[1]};
    std::uint64_t global[2] = {0, 0};
    MPI_Request request;
    MPI_Iallreduce(local, global, 2, MPI_UINT64_T, MPI_SUM, comm_, &request);
    int done = 0;
    run_until([&] {
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      return done != 0;
    });
    // The decision must be the same on every rank, so it uses the global sums only.
    if (global[0] == global[1] && global[0] == previous[0] && global[1] == previous[1]) {
      quiescent_sums_[0] = global[0];
      quiescent_sums_[1] = global[1];
      return;
    }
    previous[0] = global[0];
    previous[1] = global[1];
  }
}

}  // namespace tessera
