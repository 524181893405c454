#pragma once
/// Task collections: distributed work stealing over the runtime (seed 000, sections 4 and 6:
/// J. Lifflander, S. Krishnamoorthy, L. V. Kale, "Work Stealing and Persistence-based Load
/// Balancers for Iterative Overdecomposed Applications", HPDC 2012).
///
///   struct Node { ... };                                  // trivially copyable descriptor
///   auto tasks = ctx.task_collection<Node>(               // tessera::Context: the steal flags' options
///       [](const Node& n, Spawner<Node>& s) { ... s.spawn(child); });
///   if (ctx.runtime().rank() == 0) tasks.seed(root);      // any rank may seed any tasks
///   IterationStats stats = tasks.process();              // collective
///   tasks.restore();                                      // re-seed for the next iteration
///
/// A task is a trivially copyable descriptor (it travels as raw bytes inside loot messages)
/// run by the collection's one task function, which every rank passes the same (seed 000's
/// registered function: messages carry the descriptor only). Tasks may spawn tasks. Each rank
/// keeps its queue in a split deque (split_deque.hpp): the rank runs its newest tasks, and a
/// thief's request takes the older half of the shared part, answered by an active message
/// without stopping the rank for longer than one batch of `n` tasks. Which rank a thief asks
/// is the policy's choice (steal_options.hpp).
///
/// process() returns on every rank once every task, seeded and spawned, has run: a collective
/// epoch of the termination layer detects it (steal_engine.hpp says which messages it counts,
/// and why that is exact). It returns the iteration's statistics, the same on every rank.
/// restore() re-seeds: with the seed set again, or in retentive mode with the seeded tasks each
/// rank ran last time, stolen ones included, so the balance found by stealing persists.
///
/// Threads: with `options.workers` W = 1 (the default) the rank's one thread runs tasks and MPI
/// progress in turns. With W > 1 (`--tessera_workers=W`, steal_flags.hpp) W - 1 worker threads
/// run tasks too, stealing from each other and from the rank's deque through Chase-Lev deques,
/// while the main thread alone owns MPI progress and serves other ranks (worker_team.hpp). The
/// task function is then called from W threads at once: keep per-worker results in slots
/// indexed by Spawner::worker(), in [0, workers()).
///
/// Errors: a task that throws aborts the job on every rank with a message naming the rank and
/// the exception; so does a full deque (raise the `capacity` key).
#include "tessera/collections/steal/steal_engine.hpp"
#include "tessera/collections/steal/steal_service.hpp"

namespace tessera::collections::steal {

template <Stealable Task>
class TaskCollection {
 public:
  using Body = typename detail::StealEngine<Task>::Body;

  /// Collective: every rank constructs it, in the same order as other collective objects. The
  /// options are those of `rt`'s steal service (steal_service.hpp; fatal on a runtime without one).
  TaskCollection(Runtime& rt, Body body) : TaskCollection(rt, StealService::of(rt).options(), std::move(body)) {}
  /// The same with options of the caller's, in `rt`'s termination layer.
  TaskCollection(Runtime& rt, const StealOptions& options, Body body)
      : TaskCollection(rt, Termination::of(rt), options, std::move(body)) {}
  /// The same in a given termination layer (the layers' own tests build one by hand).
  TaskCollection(Runtime& rt, Termination& term, const StealOptions& options, Body body)
      : group_(make_objgroup<detail::StealEngine<Task>>(rt, rt, term, options, std::move(body))),
        service_(StealService::find(rt)) {
    group_.local()->attach(group_);
  }
  ~TaskCollection() { group_.local()->release(); }
  TaskCollection(const TaskCollection&) = delete;
  TaskCollection& operator=(const TaskCollection&) = delete;

  /// Adds `task` to this rank's part of the seed set (before process()).
  void seed(const Task& task) { group_.local()->seed(task); }

  /// Collective: runs every task; returns the iteration's statistics on every rank.
  IterationStats process() {
    IterationStats stats = group_.local()->process();
    if (service_ != nullptr) service_->record(stats);
    return stats;
  }

  /// Re-seeds this rank for the next process() (see the file comment). Call on every rank.
  void restore() { group_.local()->restore(); }

  /// Tasks queued on this rank now: its seeds before process(), 0 after it.
  std::int64_t queued() const { return group_.local()->queued(); }

  const StealOptions& options() const { return group_.local()->options(); }

  /// Threads that run tasks on each rank (options().workers).
  std::size_t workers() const { return static_cast<std::size_t>(options().workers); }

 private:
  ObjGroup<detail::StealEngine<Task>> group_;
  StealService* service_;  // the runtime's, which outlives every collection; nullptr on a bare Runtime
};

}  // namespace tessera::collections::steal
