#pragma once
/// The worker threads inside one rank of a task collection (`--tessera_workers=N`, N >= 2).
///
/// Worker 0 is the rank's main thread: it owns MPI progress, the runtime and the rank's split
/// deque (split_deque.hpp), and runs tasks between looks at the network (steal_engine.hpp).
/// Workers 1 .. N-1 are this team's threads. Each owns a Chase-Lev deque (chase_lev_deque.hpp,
/// the C11 formulation of Le, Pop, Cohen, Zappa Nardelli, PPoPP 2013) where the tasks it
/// spawns go, runs its newest task first, and never calls the runtime: messages, epochs and
/// other ranks are the main thread's business alone.
///
/// Who steals from whom, inside the rank:
///  - a worker thread whose deque is empty picks a random other worker. Worker 0 gives it the
///    older half of the split deque's shared part (seed 000's steal, at thread scale: one lock
///    and one copy for many tasks); any other worker gives it the oldest task of its deque;
///  - the main thread, when its split deque runs dry, takes the older half of one worker
///    thread's deque (take_half, oldest first, one Chase-Lev steal per task), and does the same
///    to make loot for another rank's thief when its own shared part is empty. Work spawned on
///    worker threads therefore reaches other ranks, always through the main thread.
///
/// Termination (why the rank's epoch cannot end while a worker thread still has tasks): the
/// team counts busy worker threads, as worker_pool.hpp does. A thread leaves the count only
/// when its own deque is empty, and joins it again before it steals; only a deque's owner
/// pushes to it. So a task in a worker thread's deque, or running on one, implies busy(). The
/// main thread keeps its counted `run` message outstanding while busy() (steal_engine.hpp),
/// which keeps the epoch's counts from balancing. The one hand-off into the count from outside
/// it is a worker stealing from the split deque: it joins the count before steal_begin(), whose
/// release store the main thread acquires when it reads the deque's size, so a main thread that
/// sees its deque emptied by a worker also sees that worker busy.
///
/// Idling: a worker thread with nothing to steal polls for `spin_us` microseconds, then naps
/// from 10 us growing to `sleep_us` (the idle policy of an idle rank, for the same reason:
/// cores may be shared). stop() is seen within one nap.
///
/// Failures: a task that throws on a worker thread stops that thread and leaves it counted busy
/// (so the epoch stays open); the main thread finds the message in failure() and aborts the
/// job, since a worker thread may not call the runtime.
#include "tessera/collections/steal/cache_line.hpp"
#include "tessera/collections/steal/spawner.hpp"
#include "tessera/collections/steal/steal_options.hpp"

#include <tessera/runtime/idle_policy.hpp>
#include <tessera/runtime/timer.hpp>
#include <tessera/runtime/trace.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tessera::collections::steal::detail {

/// One stretch of a worker thread running its own deque dry (recorded for --tessera_trace):
/// trace-clock nanoseconds and the tasks it ran.
struct WorkerSpan {
  std::size_t worker;
  std::int64_t start_ns;
  std::int64_t end_ns;
  std::uint64_t tasks;
};

/// What a team's worker threads did during one process().
template <Stealable Task>
struct TeamTotals {
  std::uint64_t tasks_executed = 0;
  std::uint64_t steals = 0;        ///< successful steals by worker threads, inside the rank
  double work_seconds = 0;         ///< wall time inside task bodies, summed over the threads
  double cpu_seconds = 0;          ///< CPU time of the threads, summed
  std::vector<Task> executed_seeds;  ///< seeded tasks the threads ran (retentive mode)
  std::vector<WorkerSpan> spans;     ///< with record_spans(true), each thread's in its order
};

template <Stealable Task>
class WorkerTeam {
 public:
  using Entry = detail::Entry<Task>;
  using RankDeque = typename Spawner<Task>::Deque;
  using WorkerDeque = typename Spawner<Task>::WorkerDeque;
  using Body = std::function<void(const Task&, Spawner<Task>&)>;

  /// `workers` N >= 2 counts the main thread, so the team has N - 1 threads. `rank_deque` and
  /// `body` must outlive the team; `body` is called from all N threads at once. Throws
  /// std::invalid_argument for N < 2.
  WorkerTeam(std::size_t workers, RankDeque& rank_deque, const Body& body, int rank, const StealOptions& options)
      : rank_deque_(rank_deque), body_(body), rank_(rank), options_(options) {
    if (workers < 2) throw std::invalid_argument("WorkerTeam: a team needs at least 2 workers");
    for (std::size_t w = 1; w < workers; ++w) worker_threads_.push_back(std::make_unique<Worker>());
  }
  ~WorkerTeam() { stop(); }
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  /// Workers, the main thread included.
  std::size_t workers() const { return worker_threads_.size() + 1; }

  /// Main thread, between process() calls: whether the threads record WorkerSpans (the trace's
  /// worker-thread slices; off, a thread pays one branch per stretch, not per task).
  void record_spans(bool on) { record_spans_ = on; }

  /// Main thread: starts the worker threads for one process().
  void start() {
    stopping_.store(false, std::memory_order_relaxed);
    for (std::size_t w = 1; w < workers(); ++w) threads_.emplace_back([this, w] { work(w); });
  }

  /// Main thread: asks the worker threads to return and joins them. Call once the epoch has
  /// ended (every deque is empty then), or from the destructor.
  void stop() {
    stopping_.store(true, std::memory_order_release);
    threads_.clear();
  }

  /// Any thread: true while some worker thread holds or runs a task (see the file comment).
  bool busy() const { return busy_.load(std::memory_order_seq_cst) > 0; }

  /// Any thread: tasks queued on the worker threads at some recent instant.
  std::int64_t queued_hint() const {
    std::int64_t sum = 0;
    for (const auto& w : worker_threads_) sum += w->deque.size_hint();
    return sum;
  }

  /// Main thread: appends to `out` the older half (rounded up) of the first worker thread's
  /// deque that has tasks, trying a different thread first each call. Returns how many.
  std::size_t take_half(std::vector<Entry>& out) {
    const std::size_t threads = worker_threads_.size();
    const std::size_t first = next_victim_++ % threads;
    for (std::size_t i = 0; i < threads; ++i) {
      WorkerDeque& victim = worker_threads_[(first + i) % threads]->deque;
      const std::int64_t half = (victim.size_hint() + 1) / 2;
      std::size_t taken = 0;
      for (std::int64_t k = 0; k < half; ++k) {
        const StealResult<Entry> loot = victim.steal();
        if (loot) {
          out.push_back(loot.value);
          ++taken;
        } else if (loot.status == StealStatus::empty) {
          break;
        }
      }
      if (taken > 0) return taken;
    }
    return 0;
  }

  /// Any thread: the first failure of a task on a worker thread, as the message to abort with.
  std::optional<std::string> failure() const {
    if (!failed_.load(std::memory_order_acquire)) return std::nullopt;
    const std::lock_guard lock(failure_mutex_);
    return failure_;
  }

  /// Main thread, after stop(): what the worker threads did since start(), and resets it.
  TeamTotals<Task> collect() {
    TeamTotals<Task> totals;
    for (const auto& w : worker_threads_) {
      totals.tasks_executed += w->tasks_executed;
      totals.steals += w->steals;
      totals.work_seconds += w->work_seconds;
      totals.cpu_seconds += w->cpu_seconds;
      totals.executed_seeds.insert(totals.executed_seeds.end(), w->executed_seeds.begin(), w->executed_seeds.end());
      totals.spans.insert(totals.spans.end(), w->spans.begin(), w->spans.end());
      w->spans.clear();
      w->tasks_executed = 0;
      w->steals = 0;
      w->work_seconds = 0;
      w->cpu_seconds = 0;
      w->executed_seeds.clear();
    }
    return totals;
  }

 private:
  // One worker thread's deque and tallies; written by that thread only while it runs.
  struct alignas(kCacheLine) Worker {
    WorkerDeque deque;
    std::uint64_t tasks_executed = 0;
    std::uint64_t steals = 0;
    double work_seconds = 0;
    double cpu_seconds = 0;
    std::vector<Task> executed_seeds;
    std::vector<WorkerSpan> spans;
  };

  void work(std::size_t w) {
    Worker& self = *worker_threads_[w - 1];
    const double cpu_start = thread_cpu_time();
    Spawner<Task> spawner(self.deque, rank_, w);
    std::minstd_rand victims(static_cast<std::uint32_t>(options_.seed ^ (0x9e3779b97f4a7c15ULL * (w + 1)) ^
                                                        static_cast<std::uint64_t>(rank_)));
    try {
      // A thread starts outside the busy count with an empty deque, and is back there after
      // each round.
      while (steal(self, w, victims)) {
        run_own(self, w, spawner);
        leave();
      }
      self.cpu_seconds = thread_cpu_time() - cpu_start;
    } catch (const std::exception& e) {
      record_failure(fmt::format("a task of a task collection threw on rank {} (worker thread {}): {}", rank_, w,
                                 e.what()));
    } catch (...) {
      record_failure(fmt::format("a task of a task collection threw a non-standard exception on rank {} "
                                 "(worker thread {})", rank_, w));
    }
  }

  // Runs the thread's own deque dry, newest task first.
  void run_own(Worker& self, std::size_t w, Spawner<Task>& spawner) {
    const double start = wall_time();
    const std::uint64_t tasks_before = self.tasks_executed;
    const std::int64_t span_start = record_spans_ ? trace_clock_ns() : 0;
    while (const std::optional<Entry> entry = self.deque.take()) {
      if (entry->seeded) self.executed_seeds.push_back(entry->task);
      body_(entry->task, spawner);
      ++self.tasks_executed;
    }
    self.work_seconds += wall_time() - start;
    if (record_spans_) [[unlikely]]
      self.spans.push_back(WorkerSpan{w, span_start, trace_clock_ns(), self.tasks_executed - tasks_before});
  }

  // Called with the thread outside the busy count and its deque empty. Returns true once it
  // has stolen (and is busy again), false when the team stops.
  bool steal(Worker& self, std::size_t w, std::minstd_rand& victims) {
    IdleBackoff idle(options_.spin_us, 0, options_.sleep_us);
    const std::size_t n = workers();
    while (!stopping_.load(std::memory_order_acquire)) {
      const std::size_t victim = (w + 1 + victims() % (n - 1)) % n;
      const bool stolen = victim == 0 ? steal_from_rank(self) : steal_from_thread(self, *worker_threads_[victim - 1]);
      if (stolen) {
        ++self.steals;
        return true;
      }
      idle.wait();
    }
    return false;
  }

  bool steal_from_rank(Worker& self) {
    // Looking before joining the busy count keeps idle threads off the shared counter.
    if (rank_deque_.shared_size() == 0) return false;
    join();
    const auto ticket = rank_deque_.steal_begin();
    if (!ticket) {
      leave();
      return false;
    }
    for (const Entry& entry : ticket->tasks) self.deque.push(entry);
    rank_deque_.steal_complete(*ticket);
    return true;
  }

  bool steal_from_thread(Worker& self, Worker& victim) {
    if (victim.deque.size_hint() == 0) return false;
    join();
    const StealResult<Entry> loot = victim.deque.steal();
    if (!loot) {
      leave();
      return false;
    }
    self.deque.push(loot.value);
    return true;
  }

  // seq_cst: the count is the rank's "worker threads hold tasks" decision, read by the main
  // thread and read-modify-written by every worker thread.
  void join() { busy_.fetch_add(1, std::memory_order_seq_cst); }
  void leave() { busy_.fetch_sub(1, std::memory_order_seq_cst); }

  void record_failure(std::string message) {
    const std::lock_guard lock(failure_mutex_);
    if (!failure_) failure_ = std::move(message);
    failed_.store(true, std::memory_order_release);
  }

  RankDeque& rank_deque_;
  const Body& body_;
  int rank_;
  StealOptions options_;
  std::vector<std::unique_ptr<Worker>> worker_threads_;  // worker w >= 1 at index w - 1
  std::vector<std::jthread> threads_;
  std::size_t next_victim_ = 0;  // main thread only
  bool record_spans_ = false;    // written by the main thread only while no thread runs
  alignas(kCacheLine) std::atomic<std::int64_t> busy_{0};
  alignas(kCacheLine) std::atomic<bool> stopping_{false};
  std::atomic<bool> failed_{false};
  mutable std::mutex failure_mutex_;
  std::optional<std::string> failure_;
};

}  // namespace tessera::collections::steal::detail
