#pragma once
// Static assignment: the baseline work-pool of seed 002 (Cederman and Tsigas, "Dynamic Load
// Balancing Using Work-Stealing", GPU Computing Gems ch. 35, section 35.3.1 and Figure 35.2),
// on threads of one process instead of CUDA thread blocks.
//
// Two arrays: `in` holds this generation's tasks, `out` receives the subtasks they create.
// A generation's tasks are split evenly among the workers, worker w taking the w-th of W
// contiguous slices of `in`, which is only read, so needs no synchronization. A task's
// subtasks are written to `out` at slots claimed with a fetch-and-add, as in the paper, but
// one per task for all its subtasks rather than one per subtask: on two CPU cores a shared
// counter bumped once per subtask bounced between them and stopped two workers from running
// faster than one (the baseline should not be slowed by what the scheme does not require). A
// generation ends when every worker has finished its slice (a barrier, the counterpart of the
// end of a kernel invocation); the arrays then swap roles, and the run ends after the
// first generation that creates nothing. Within a generation a worker that finishes early
// idles: that, and the size of the arrays, is what the dynamic scheme (worker_pool.hpp over
// abp_deque.hpp) improves on. The barrier spins, yielding the core between looks, as the
// dynamic scheme's thieves do: a barrier that puts its waiters to sleep (std::barrier's
// futex) charged each generation a wake-up, several times the work of a small generation.
//
// Storage: `out` must hold every subtask of a generation, which is not known in advance, so
// each task may spawn at most `max_spawn` subtasks (spawn() throws std::length_error beyond
// that; they wait in a per-worker buffer of that size until the task returns) and `out` is
// reserved for |in| * max_spawn tasks; the pages never written are never
// touched. peak_tasks reports the paper's figure, the largest generation (the slots each
// array must really hold), not that reservation.
//
// Time: each worker's thread CPU time is read at each generation boundary. cpu_makespan sums,
// over generations, the slowest worker's CPU time in that generation: the run's length if
// every worker had a core of its own (cores may be shared), barrier waits excluded.
//
// Failures: if a task throws, the other workers skip the rest of their slices, the run ends
// at that generation's barrier, and run() rethrows the first exception on the calling thread.

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tessera/collections/steal/atomic_slot.hpp"
#include "tessera/collections/steal/cache_line.hpp"
#include "tessera/collections/steal/thread_cpu_clock.hpp"
#include "tessera/collections/steal/worker_pool.hpp"

namespace tessera::collections::steal {

struct StaticPoolStats {
  std::vector<WorkerStats> workers;  // tasks_executed and cpu_seconds per worker
  std::int64_t generations = 0;      // generations run, the seeds' included
  std::int64_t peak_tasks = 0;       // the largest generation
  double cpu_makespan = 0;           // see the file comment
};

template <Stealable Task>
class StaticWorkPool;

// Handed to each task: where it runs and how it adds subtasks to the next generation.
template <Stealable Task>
class StaticContext {
 public:
  std::size_t worker() const noexcept { return worker_; }

  // Adds `task` to the next generation when the running task returns. Throws
  // std::length_error beyond max_spawn subtasks of one task.
  void spawn(const Task& task) {
    if (staged_.size() == max_spawn_) {
      throw std::length_error("StaticWorkPool: a task spawned more than max_spawn = " + std::to_string(max_spawn_) +
                              " subtasks");
    }
    staged_.push_back(task);
  }

 private:
  friend class StaticWorkPool<Task>;
  StaticContext(std::size_t worker, std::atomic<std::size_t>& next, std::size_t max_spawn)
      : worker_(worker), next_(next), max_spawn_(max_spawn) {
    staged_.reserve(max_spawn);
  }

  // After each task: claims slots for its subtasks with one fetch-and-add (relaxed: the slot
  // only has to be unique; the generation's barrier publishes the writes) and copies them
  // there. Cannot overflow: a generation of n tasks reserved n * max_spawn slots.
  void flush(Task* out) {
    if (staged_.empty()) return;
    const std::size_t slot = next_.fetch_add(staged_.size(), std::memory_order_relaxed);
    std::uninitialized_copy(staged_.begin(), staged_.end(), out + slot);
    staged_.clear();
  }

  std::size_t worker_;
  std::atomic<std::size_t>& next_;
  std::size_t max_spawn_;
  std::vector<Task> staged_;  // the running task's subtasks
};

template <Stealable Task>
class StaticWorkPool {
 public:
  using Context = StaticContext<Task>;

  // `workers` >= 1 threads (the caller counts as one); `max_spawn` >= 1 subtasks per task at
  // most. Throws std::invalid_argument otherwise.
  StaticWorkPool(std::size_t workers, std::size_t max_spawn) : workers_(workers), max_spawn_(max_spawn) {
    if (workers == 0) throw std::invalid_argument("StaticWorkPool: the number of workers must be at least 1");
    if (max_spawn == 0) throw std::invalid_argument("StaticWorkPool: max_spawn must be at least 1");
  }

  std::size_t workers() const noexcept { return workers_; }

  // Runs `seeds` as the first generation, then each generation their subtasks make, until
  // one makes none. `body(task, context)` is called concurrently from all workers.
  template <class Body>
    requires std::invocable<Body&, const Task&, Context&>
  StaticPoolStats run(std::span<const Task> seeds, Body body) {
    Run state(*this, seeds);
    {
      std::vector<std::jthread> threads;
      threads.reserve(workers_ - 1);
      for (std::size_t w = 1; w < workers_; ++w) {
        threads.emplace_back([&state, &body, w] { work(state, body, w); });
      }
      work(state, body, 0);
    }
    if (state.error) std::rethrow_exception(state.error);
    StaticPoolStats stats = std::move(state.stats);
    for (std::size_t w = 0; w < workers_; ++w) stats.workers[w] = state.workers[w].value.totals;
    return stats;
  }

 private:
  // One of the two arrays: raw storage for trivially copyable tasks, so that reserving
  // |in| * max_spawn slots writes nothing.
  class TaskArray {
   public:
    ~TaskArray() { release(); }
    Task* data() const noexcept { return data_; }
    std::size_t capacity() const noexcept { return capacity_; }
    void reserve(std::size_t n) {
      if (n <= capacity_) return;
      release();
      data_ = std::allocator<Task>().allocate(n);
      capacity_ = n;
    }
    void swap(TaskArray& other) noexcept {
      std::swap(data_, other.data_);
      std::swap(capacity_, other.capacity_);
    }

   private:
    void release() noexcept {
      if (data_ != nullptr) std::allocator<Task>().deallocate(data_, capacity_);
      data_ = nullptr;
      capacity_ = 0;
    }
    Task* data_ = nullptr;
    std::size_t capacity_ = 0;
  };

  struct PerWorker {
    WorkerStats totals;
    double generation_cpu = 0;  // CPU time in the current generation's slice
  };

  // The state of one run(). Written between barriers by the workers (their own PerWorker, the
  // slots of `out` they claimed, `next`), and at each barrier by the completion step alone.
  struct Run {
    Run(const StaticWorkPool& pool, std::span<const Task> seeds) : max_spawn(pool.max_spawn_), workers(pool.workers_) {
      in.reserve(std::max<std::size_t>(seeds.size(), 1));
      std::uninitialized_copy(seeds.begin(), seeds.end(), in.data());
      in_size = seeds.size();
      out.reserve(std::max<std::size_t>(in_size * max_spawn, 1));
      stats.workers.resize(pool.workers_);
      done = in_size == 0;
    }
    std::size_t max_spawn;
    TaskArray in;
    TaskArray out;
    std::size_t in_size = 0;
    alignas(kCacheLine) std::atomic<std::size_t> next{0};  // the next free slot of `out`
    alignas(kCacheLine) std::atomic<bool> stop{false};     // a task threw
    bool done = false;                                      // read by all after each barrier
    std::vector<CacheAligned<PerWorker>> workers;
    alignas(kCacheLine) std::atomic<std::size_t> arrived{0};      // workers at the barrier
    alignas(kCacheLine) std::atomic<std::uint64_t> generation{0};  // barriers passed
    StaticPoolStats stats;
    std::mutex error_mutex;
    std::exception_ptr error;
  };

  // The end of a generation: the last worker to arrive runs end_generation() while the others
  // wait for `generation` to move. acq_rel on `arrived`: the arrivals form one release
  // sequence, so the last one sees every worker's writes of the generation; release on
  // `generation`, acquired by the waiters, publishes what end_generation() wrote.
  static void arrive_and_wait(Run& r) {
    const std::uint64_t generation = r.generation.load(std::memory_order_relaxed);
    if (r.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == r.workers.size()) {
      r.arrived.store(0, std::memory_order_relaxed);
      end_generation(r);
      r.generation.store(generation + 1, std::memory_order_release);
      return;
    }
    while (r.generation.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

  // Runs on one worker after all have arrived and before any leaves, so it may touch
  // everything.
  static void end_generation(Run& r) noexcept {
    double slowest = 0;
    for (const auto& w : r.workers) slowest = std::max(slowest, w.value.generation_cpu);
    r.stats.cpu_makespan += slowest;
    r.stats.peak_tasks = std::max(r.stats.peak_tasks, static_cast<std::int64_t>(r.in_size));
    ++r.stats.generations;
    const std::size_t created = r.next.load(std::memory_order_relaxed);
    if (r.stop.load(std::memory_order_relaxed) || created == 0) {
      r.done = true;
      return;
    }
    r.in.swap(r.out);
    r.in_size = created;
    r.next.store(0, std::memory_order_relaxed);
    try {
      r.out.reserve(created * r.max_spawn);
    } catch (...) {
      r.error = std::current_exception();
      r.done = true;
    }
  }

  template <class Body>
  static void work(Run& run, Body& body, std::size_t self) {
    PerWorker& mine = run.workers[self].value;
    Context context(self, run.next, run.max_spawn);
    while (!run.done) {
      const double cpu_start = detail::thread_cpu_seconds();
      Task* const out = run.out.data();
      const std::size_t n = run.in_size;
      const std::size_t first = n * self / run.workers.size();
      const std::size_t last = n * (self + 1) / run.workers.size();
      try {
        for (std::size_t i = first; i < last && !run.stop.load(std::memory_order_relaxed); ++i) {
          body(std::as_const(run.in.data()[i]), context);
          context.flush(out);
          ++mine.totals.tasks_executed;
        }
      } catch (...) {
        context.staged_.clear();
        const std::lock_guard lock(run.error_mutex);
        if (!run.error) run.error = std::current_exception();
        run.stop.store(true, std::memory_order_relaxed);
      }
      mine.generation_cpu = detail::thread_cpu_seconds() - cpu_start;
      mine.totals.cpu_seconds += mine.generation_cpu;
      arrive_and_wait(run);
    }
  }


  std::size_t workers_;
  std::size_t max_spawn_;
};

}  // namespace tessera::collections::steal
