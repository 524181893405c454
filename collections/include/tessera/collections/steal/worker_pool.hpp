#pragma once
// Work stealing among threads of one process: N workers, each owning a work-stealing deque
// (Chase-Lev by default; the fixed-array ABP deque of seed 002 for its work-pool scheme).
// A worker runs tasks from its own deque (newest first); a task may spawn tasks, which go
// to the deque of the worker running it. A worker whose deque is empty becomes a thief:
// it picks a victim uniformly at random among the other workers and steals that victim's
// oldest task. This is the shared-memory scheme of Blumofe and Leiserson (Cilk), for one
// process with no runtime (the apps' `--workers`); the calling thread is worker 0. Task
// collections use the same scheme inside each rank (`--tessera_workers=N`, worker_team.hpp),
// where worker 0 also owns MPI progress and the rank's split deque.
//
// Termination: run() returns when every deque is empty and no worker is running a task.
// The pool counts "active" workers. A worker leaves the count only when its own deque is
// empty, and a thief rejoins it *before* it steals, so a task is always either in a deque
// of an active worker or held by an active worker. Since only a deque's owner pushes to
// it, the count reaching zero therefore means no task exists anywhere, and the worker
// that brings it to zero announces termination. No per-task shared counter is touched.
//
// The deque: any type with the owner's push/take, the thieves' steal and a size hint
// (WorkStealingDeque below), built from one capacity argument (Chase-Lev: its initial ring,
// a power of two; ABP: its fixed array, and push throws std::length_error when it is full).
//
// Failures: if a task throws, the pool stops every worker, drops the tasks not yet run,
// and run() rethrows the first exception on the calling thread.

#include <atomic>
#include <concepts>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tessera/collections/steal/cache_line.hpp"
#include "tessera/collections/steal/chase_lev_deque.hpp"
#include "tessera/collections/steal/thread_cpu_clock.hpp"

namespace tessera::collections::steal {

// What one worker did during one run().
struct WorkerStats {
  std::uint64_t tasks_executed = 0;
  std::uint64_t steals_attempted = 0;   // steal() calls on a victim that looked non-empty
  std::uint64_t steals_successful = 0;  // ... that returned a task
  std::uint64_t steals_lost_race = 0;   // ... that found work but lost it to another taker
  double cpu_seconds = 0;               // the worker thread's CPU time in run(), stealing included
  std::int64_t peak_tasks = 0;          // slots its deque needed: ABP high_water(), Chase-Lev ring
};

struct PoolStats {
  std::vector<WorkerStats> workers;  // indexed by worker

  WorkerStats total() const noexcept {
    WorkerStats sum;
    for (const auto& w : workers) {
      sum.tasks_executed += w.tasks_executed;
      sum.steals_attempted += w.steals_attempted;
      sum.steals_successful += w.steals_successful;
      sum.steals_lost_race += w.steals_lost_race;
      sum.cpu_seconds += w.cpu_seconds;
      sum.peak_tasks += w.peak_tasks;
    }
    return sum;
  }
};

// What WorkerPool needs of a deque (chase_lev_deque.hpp and abp_deque.hpp have it).
template <class Deque, class Task>
concept WorkStealingDeque = std::constructible_from<Deque, std::int64_t> &&
    requires(Deque& deque, const Task& task) {
      deque.push(task);
      { deque.take() } -> std::same_as<std::optional<Task>>;
      { deque.steal() } -> std::same_as<StealResult<Task>>;
      { deque.size_hint() } -> std::convertible_to<std::int64_t>;
      { deque.capacity() } -> std::convertible_to<std::int64_t>;
    };

// Handed to each task: where it runs and how it creates more work.
template <Stealable Task, WorkStealingDeque<Task> Deque = ChaseLevDeque<Task>>
class WorkerContext {
 public:
  WorkerContext(std::size_t worker, Deque& deque) : worker_(worker), deque_(deque) {}

  // The index of the running worker, in [0, workers); stable for the task's duration, so a
  // task can accumulate results into per-worker slots without synchronization.
  std::size_t worker() const noexcept { return worker_; }

  // Queues `task` on this worker's deque; idle workers may steal it.
  void spawn(const Task& task) { deque_.push(task); }

 private:
  std::size_t worker_;
  Deque& deque_;
};

template <Stealable Task, WorkStealingDeque<Task> Deque = ChaseLevDeque<Task>>
class WorkerPool {
 public:
  using Context = WorkerContext<Task, Deque>;

  // `workers` >= 1 threads (the caller counts as one). `seed` fixes the victim choices'
  // random streams. `deque_capacity` is each deque's constructor argument. Throws
  // std::invalid_argument if `workers` is 0 (and whatever the deque throws for its capacity).
  explicit WorkerPool(std::size_t workers, std::uint64_t seed = 0x7e55e7a, std::int64_t deque_capacity = 256)
      : workers_(workers), seed_(seed), deque_capacity_(deque_capacity) {
    if (workers == 0) {
      throw std::invalid_argument("WorkerPool: the number of workers must be at least 1");
    }
  }

  std::size_t workers() const noexcept { return workers_; }

  // Runs `seeds` and every task they spawn, each exactly once, and returns when all have
  // run. Seeds are dealt round-robin to the workers' deques. `body(task, context)` is
  // called concurrently from all workers, so it must be safe to call that way.
  template <class Body>
    requires std::invocable<Body&, const Task&, Context&>
  PoolStats run(std::span<const Task> seeds, Body body) {
    Run state(workers_, deque_capacity_);
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      state.deques[i % workers_]->push(seeds[i]);
    }
    {
      std::vector<std::jthread> threads;
      threads.reserve(workers_ - 1);
      for (std::size_t w = 1; w < workers_; ++w) {
        threads.emplace_back([&state, &body, w, this] { work(state, body, w); });
      }
      work(state, body, 0);
    }
    if (state.error) {
      std::rethrow_exception(state.error);
    }
    PoolStats stats;
    for (const auto& s : state.stats) {
      stats.workers.push_back(s.value);
    }
    return stats;
  }

 private:
  // The state of one run(), shared by its workers.
  struct Run {
    Run(std::size_t n, std::int64_t deque_capacity) : stats(n), active(static_cast<std::int64_t>(n)) {
      deques.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        deques.push_back(std::make_unique<Deque>(deque_capacity));
      }
    }
    std::vector<std::unique_ptr<Deque>> deques;
    std::vector<CacheAligned<WorkerStats>> stats;
    alignas(kCacheLine) std::atomic<std::int64_t> active;
    alignas(kCacheLine) std::atomic<bool> stop{false};
    std::mutex error_mutex;
    std::exception_ptr error;
  };

  template <class Body>
  void work(Run& run, Body& body, std::size_t self) {
    const double cpu_start = detail::thread_cpu_seconds();
    work_until_stopped(run, body, self);
    WorkerStats& stats = run.stats[self].value;
    stats.cpu_seconds = detail::thread_cpu_seconds() - cpu_start;
    const Deque& own = *run.deques[self];
    if constexpr (requires { own.high_water(); }) {
      stats.peak_tasks = own.high_water();
    } else {
      stats.peak_tasks = own.capacity();
    }
  }

  template <class Body>
  void work_until_stopped(Run& run, Body& body, std::size_t self) {
    Deque& own = *run.deques[self];
    WorkerStats& stats = run.stats[self].value;
    Context context(self, own);
    std::minstd_rand victims(static_cast<std::uint32_t>(seed_ ^ (0x9e3779b97f4a7c15ULL * (self + 1))));
    try {
      while (!run.stop.load(std::memory_order_relaxed)) {
        while (auto task = own.take()) {
          body(*task, context);
          ++stats.tasks_executed;
          if (run.stop.load(std::memory_order_relaxed)) {
            return;
          }
        }
        leave_active(run);
        if (!steal_one(run, body, context, stats, victims)) {
          return;
        }
      }
    } catch (...) {
      {
        const std::lock_guard lock(run.error_mutex);
        if (!run.error) {
          run.error = std::current_exception();
        }
      }
      run.stop.store(true, std::memory_order_release);
    }
  }

  // Called with the worker outside the active count and its deque empty. Returns true
  // once it has stolen and run a task (and is active again), false when the pool stops.
  template <class Body>
  bool steal_one(Run& run, Body& body, Context& context, WorkerStats& stats,
                 std::minstd_rand& victims) {
    const std::size_t self = context.worker();
    while (!run.stop.load(std::memory_order_acquire)) {
      if (workers_ > 1) {
        const std::size_t victim = (self + 1 + victims() % (workers_ - 1)) % workers_;
        Deque& deque = *run.deques[victim];
        // Looking before rejoining the active count keeps idle thieves from bouncing the
        // shared counter while there is nothing to take.
        if (deque.size_hint() > 0) {
          run.active.fetch_add(1, std::memory_order_seq_cst);
          ++stats.steals_attempted;
          const StealResult<Task> loot = deque.steal();
          if (loot) {
            ++stats.steals_successful;
            body(loot.value, context);
            ++stats.tasks_executed;
            return true;
          }
          if (loot.status == StealStatus::lost_race) {
            ++stats.steals_lost_race;
          }
          leave_active(run);
          continue;
        }
      }
      // Nothing to take: give the core to a worker that has work (cores may be shared).
      std::this_thread::yield();
    }
    return false;
  }

  static void leave_active(Run& run) {
    // seq_cst: the count is the termination decision, read-modify-written by all workers.
    if (run.active.fetch_sub(1, std::memory_order_seq_cst) == 1) {
      run.stop.store(true, std::memory_order_release);
    }
  }

  std::size_t workers_;
  std::uint64_t seed_;
  std::int64_t deque_capacity_;
};

}  // namespace tessera::collections::steal
