#pragma once
/// Timeline traces in the Chrome trace-event JSON format, which Perfetto (ui.perfetto.dev, also
/// offline) and chrome://tracing open: `--tessera_trace=DIR`.
///
/// What is recorded, per rank (process id = the rank at the start, which an elastic run's
/// rescales do not change: see trace_session.hpp; thread id 0 = the rank's scheduler thread):
/// - every handler execution as a slice (`B`/`E`) named after the handler (for an element handler,
///   the element's member function), with the record's size in bytes; an element's work inside it
///   as a nested slice "element" with the collection id and the element's linear index;
/// - scheduler idle periods as slices named "idle" (from the first turn that finds no work to the
///   turn that finds some);
/// - epochs as async slices (`b`/`e`, category "epoch", id = the epoch id) on the rank that opened
///   them; phases as async slices (category "phase", id = the phase number);
/// - the LB manager's steps as nested slices: "phase_end" > "lb" > "statistics", "strategy",
///   "migration", "report";
/// - a sampled fraction of messages as flow events from the send (`s`, inside the sending slice)
///   to the start of the handler run (`f`, bound to the handler slice). Which messages are sampled
///   needs no extra bytes on the wire: the n-th record from rank s to rank d is sampled on both
///   sides by the same hash of (s, d, n), since per-pair order is kept.
///
/// Timestamps are microseconds on rank 0's steady clock from the trace's start. Ranks of one node
/// read the same monotonic clock; each other node's first rank measures its offset from rank 0 by
/// ping-pong at start-up (Cristian's method: the round trip with the shortest time wins, error at
/// most half of it), as Projections does, and passes it to the ranks of its node.
///
/// Events are kept in memory and written to `DIR/rank.<r>.json` (a JSON array, one event per line)
/// at phase ends, at the next scheduler turn outside any handler once the buffer passes
/// kWriteEvents, and at the end of the run; never inside a handler. At the end rank 0 joins the
/// ranks' files into DIR/trace.json (`tessera-trace-merge DIR -o FILE` does the same offline,
/// also for the files of a killed run). When a rank's trace reaches `--tessera_trace_max_mb`
/// (bytes written plus bytes buffered), that rank closes its open slices, warns once and stops
/// tracing; the run goes on.
///
/// Worker threads of task collections (`--tessera_workers`) are threads 1 .. N-1 of their rank:
/// each stretch in which a thread runs its own deque dry is a slice "tasks" with the number of
/// tasks it ran. The threads keep their stretches themselves and the scheduler thread adds them
/// when the task collection's process() has joined them, so they never touch the tracer.
///
/// Cost: with tracing off, every event site in the scheduler is one predictable branch on a null
/// pointer (a worker thread pays one per stretch, not per task).
#include <tessera/runtime/flags.hpp>

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessera {

/// The trace flags (a FlagGroup the runtime always parses).
struct TraceFlags : FlagGroup {
  std::string dir;                   ///< --tessera_trace=DIR; empty: no trace
  std::string flow_sample = "1/64";  ///< fraction of messages joined to their handler by a flow
  double max_mb = 512;               ///< per-rank trace size (MiB) at which tracing stops

  /// The flow fraction in [0, 1] ("1/64", "0.25", "0", "1"); throws Error on anything else.
  double flow_fraction() const;
  void describe(FlagTable& table) override;
  void validate() const override;
};

/// One rank's clock offset from rank 0, in nanoseconds (add it to a local reading), and the round
/// trip of the ping-pong that measured it (0 where no ping-pong was needed).
struct ClockOffset {
  double offset_ns = 0;
  double round_trip_ns = 0;
};

/// Collective over `comm`: every rank's offset from rank 0's steady clock. With
/// `node_shares_clock` (the default for traces) ranks of rank 0's node get 0 and every other node
/// measures once; without it every rank measures by ping-pong (`rounds` round trips each).
ClockOffset align_clock(MPI_Comm comm, bool node_shares_clock, int rounds = 32);

/// Steady-clock reading in nanoseconds (the trace's clock).
std::int64_t trace_clock_ns();

/// One rank's trace. Not thread-safe: the scheduler thread records, as every call site is there.
class Tracer {
 public:
  /// Events buffered before a write is due.
  static constexpr std::size_t kWriteEvents = 1 << 16;

  /// Opens `DIR/rank.<process>.json` (creating DIR). Throws Error naming the path when it cannot.
  /// `origin_ns` is rank 0's clock at the trace's start, `offset` this rank's from align_clock.
  /// `process` names the file and the trace's process id: the rank at the start (the default, -1),
  /// or for a process an expand started, an id after every one the run used (trace_session.hpp).
  Tracer(const TraceFlags& flags, int rank, int size, std::int64_t origin_ns, ClockOffset offset, int process = -1);
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  /// False once the size limit stopped this rank's trace, or once it is closed.
  bool active() const { return active_; }
  std::int64_t origin_ns() const { return origin_ns_; }
  /// After a rescale's cut: this process is now `rank` of `size`, the run's `rescales`-th rank
  /// set. Flow sampling starts again (every pair's count is 0 on both sides, and the rescale count
  /// is hashed in, so flow ids stay unique) and the process's name records the change.
  void renumber(int rank, int size, int rescales);
  /// On a process an expand started: it joined the run at its `rescales`-th rank set (its name;
  /// renumber() set the rest).
  void joined_at(int rescales);
  std::filesystem::path file() const { return path_; }

  /// A slice on the scheduler thread; slices nest (end() closes the innermost).
  void begin(std::string_view name);
  void end();
  /// A handler run: `handler` and its readable `name`, the record's bytes, the flow id that
  /// arrived with it (0: none).
  void begin_handler(std::uint32_t handler, std::string_view slot_name, std::size_t bytes, std::uint64_t flow);
  /// An element's work inside the current handler (a nested slice; close with end()).
  void begin_element(std::uint64_t collection, std::uint64_t element);
  void begin_idle() { begin_id(idle_name_); }
  /// A finished slice on thread `tid` (>= 1, a worker thread), from `start_ns` to `end_ns` on
  /// trace_clock_ns(), with `count` as its args.count. Slices of one thread must come in order.
  void thread_slice(int tid, std::string_view name, std::int64_t start_ns, std::int64_t end_ns, std::uint64_t count);
  /// A finished slice on the scheduler thread from `start_ns` to `end_ns` on trace_clock_ns()
  /// (a complete event: it nests by time in whatever slice was open then).
  void complete(std::string_view name, std::int64_t start_ns, std::int64_t end_ns);

  /// Async slices (category `category`, id `id`), not bound to the call stack.
  void async_begin(std::string_view category, std::string_view name, std::uint64_t id);
  void async_end(std::string_view category, std::string_view name, std::uint64_t id);

  /// Called for every record leaving for `dest` / arriving from `source`, in order: returns the
  /// flow id when this record is sampled (and records the flow's start on send), else 0.
  std::uint64_t on_send(int dest);
  std::uint64_t on_receive(int source);

  /// Writes buffered events if a write is due and no handler is running (called once per
  /// scheduler turn); write_now() writes them unconditionally outside handlers (phase ends).
  void maybe_write() {
    if (events_.size() >= kWriteEvents && handler_depth_ == 0) write();
  }
  void write_now() {
    if (handler_depth_ == 0) write();
  }

  /// Ends the trace: closes open slices, writes everything with the process and thread names,
  /// closes the file; later calls record nothing. Called by the runtime after its final drain, or
  /// when this rank leaves the run at a rescale.
  void close();

 private:
  enum class Kind : std::uint8_t {
    begin, end, handler, element, thread_begin, async_begin, async_end, flow_start, flow_end, complete
  };
  struct Event {
    std::int64_t ts_ns;
    std::uint64_t id;  // flow or async id; element: the element
    std::int64_t arg;  // handler: bytes; element: collection; complete: duration, ns
    std::uint32_t name;
    std::uint32_t category;
    std::uint16_t tid;
    Kind kind;
  };

  void push(Kind kind, std::uint32_t name, std::uint32_t category = 0, std::uint64_t id = 0, std::int64_t arg = 0);
  void begin_id(std::uint32_t name);
  std::uint32_t intern(std::string_view name);
  std::uint64_t sample(int source, int dest, std::uint64_t n) const;
  void write();
  void stop();

  int rank_;
  int size_;
  int process_;              // pid in the trace and the file's number
  std::uint64_t salt_ = 0;   // the rescale count, hashed into flow ids
  std::string process_name_;  // "rank 3", "rank 3 -> 2 (rescale 1)", ...
  std::int64_t origin_ns_;
  double offset_ns_;
  std::uint64_t flow_threshold_;  // a record is sampled when its hash is below this
  bool flow_all_;
  std::uint64_t max_bytes_;
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  bool active_ = true;
  std::uint64_t bytes_written_ = 0;
  std::vector<Event> events_;
  std::vector<std::string> names_;  // JSON-escaped
  std::unordered_map<std::string, std::uint32_t> name_ids_;
  std::vector<std::uint32_t> handler_names_;  // by handler id; 0: not interned yet
  std::vector<std::uint64_t> sent_;            // records sent to each rank
  std::vector<std::uint64_t> received_;        // records received from each rank
  std::vector<bool> open_is_handler_;          // the open B slices, innermost last
  int handler_depth_ = 0;
  int threads_ = 1;  // thread ids used so far, the scheduler's 0 included
  std::uint32_t idle_name_;
  std::uint32_t element_name_;
  std::uint32_t flow_name_;
};

/// A slice for the scope's duration when `tracer` is not null (tracing on).
class TraceSlice {
 public:
  TraceSlice(Tracer* tracer, std::string_view name) : tracer_(tracer) {
    if (tracer_ != nullptr) [[unlikely]]
      tracer_->begin(name);
  }
  ~TraceSlice() { end(); }
  /// Ends the slice before the scope does; later calls do nothing.
  void end() {
    if (tracer_ != nullptr) [[unlikely]]
      tracer_->end();
    tracer_ = nullptr;
  }
  TraceSlice(const TraceSlice&) = delete;
  TraceSlice& operator=(const TraceSlice&) = delete;

 private:
  Tracer* tracer_;
};

/// Joins the rank files of DIR (rank.0.json, rank.1.json, ... as far as they go, also unfinished
/// ones of a killed run) into one trace at `out`. Throws Error when DIR holds no rank file or a
/// file cannot be read or written.
void merge_trace(const std::filesystem::path& dir, const std::filesystem::path& out);

}  // namespace tessera
