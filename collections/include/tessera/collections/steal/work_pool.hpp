#pragma once
// Seed 002's two work-pool schemes behind one call, so an application writes its task body
// once and runs it under either (Cederman and Tsigas, "Dynamic Load Balancing Using
// Work-Stealing", GPU Computing Gems ch. 35, section 35.3):
//  - static assignment (static_work_pool.hpp): generation by generation, each split evenly;
//  - dynamic: one ABP deque per worker (abp_deque.hpp) with random-victim stealing and the
//    active-count termination of worker_pool.hpp.
// The body is called as body(task, context) with either pool's context, so it is written as a
// generic lambda using context.spawn(task) and context.worker().
//
// The figures returned are those of the paper's section 35.4, taken the same way for both:
//  - tasks: body calls;
//  - peak_tasks, the task storage the run needed: static, the largest generation (each of the
//    two arrays must hold it); dynamic, the largest deque high-water mark times the number of
//    workers (every deque must be allocated that large);
//  - cpu_seconds, the run's length on thread CPU time if every worker had a core of its own:
//    static, the sum over generations of the slowest worker's CPU time in it; dynamic, the
//    largest worker CPU time (a thief spins while it looks for work, so that is its whole run);
//  - wall_seconds: run() measured on the wall clock, thread start and join included.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tessera/collections/steal/abp_deque.hpp"
#include "tessera/collections/steal/static_work_pool.hpp"
#include "tessera/collections/steal/worker_pool.hpp"

namespace tessera::collections::steal {

enum class WorkPoolScheme { static_assignment, dynamic };

// "static" or "dynamic"; nothing for anything else.
inline std::optional<WorkPoolScheme> parse_work_pool_scheme(std::string_view name) {
  if (name == "static") return WorkPoolScheme::static_assignment;
  if (name == "dynamic") return WorkPoolScheme::dynamic;
  return std::nullopt;
}

inline const char* to_string(WorkPoolScheme scheme) {
  return scheme == WorkPoolScheme::static_assignment ? "static" : "dynamic";
}

// How one application's tasks fit the pools: how many subtasks a task spawns at most, and
// how deep a worker's deque can get (the ABP array size; for a depth-first search, the
// branching factor times the depth, plus the seeds).
struct WorkPoolShape {
  std::size_t max_spawn = 1;
  std::int64_t deque_capacity = 1;
};

struct WorkPoolRun {
  std::uint64_t tasks = 0;
  std::int64_t peak_tasks = 0;
  double cpu_seconds = 0;
  double wall_seconds = 0;
  std::uint64_t steals = 0;      // dynamic only: successful steals
  std::int64_t generations = 0;  // static only
};

// Runs `seeds` and everything they spawn under `scheme` on `workers` threads (the caller
// included). Throws std::invalid_argument for 0 workers, std::length_error when a task
// outgrows `shape`, and rethrows what a task throws.
template <Stealable Task, class Body>
WorkPoolRun run_work_pool(WorkPoolScheme scheme, std::size_t workers, const WorkPoolShape& shape,
                          std::span<const Task> seeds, Body body) {
  WorkPoolRun result;
  const auto start = std::chrono::steady_clock::now();
  if (scheme == WorkPoolScheme::static_assignment) {
    StaticWorkPool<Task> pool(workers, shape.max_spawn);
    const StaticPoolStats stats = pool.run(seeds, body);
    for (const WorkerStats& w : stats.workers) result.tasks += w.tasks_executed;
    result.peak_tasks = stats.peak_tasks;
    result.cpu_seconds = stats.cpu_makespan;
    result.generations = stats.generations;
  } else {
    WorkerPool<Task, AbpDeque<Task>> pool(workers, 0x7e55e7a, shape.deque_capacity);
    const PoolStats stats = pool.run(seeds, body);
    std::int64_t deepest = 0;
    for (const WorkerStats& w : stats.workers) {
      result.tasks += w.tasks_executed;
      result.steals += w.steals_successful;
      result.cpu_seconds = std::max(result.cpu_seconds, w.cpu_seconds);
      deepest = std::max(deepest, w.peak_tasks);
    }
    result.peak_tasks = deepest * static_cast<std::int64_t>(workers);
  }
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace tessera::collections::steal
