#pragma once
/// What a task of a task collection sees: the rank and worker thread it runs on, and how to
/// create more tasks.
///
/// A task spawned on the rank's main thread (worker 0) goes to the rank's split deque, where
/// thieves of other ranks and the rank's other workers can find it; one spawned on another
/// worker thread goes to that worker's Chase-Lev deque (worker_team.hpp).
#include "tessera/collections/steal/chase_lev_deque.hpp"
#include "tessera/collections/steal/split_deque.hpp"

#include <tessera/runtime/error.hpp>

#include <fmt/format.h>

#include <cstddef>

namespace tessera::collections::steal {

namespace detail {
/// A queued task. `seeded` marks tasks of the collection's seed set (seeded, restored or stolen
/// from one), the only ones retentive mode re-seeds: spawned tasks are recreated by their parents.
template <Stealable Task>
struct alignas(8) Entry {  // whole words: copies in and out of the deques stay aligned
  Task task;
  bool seeded = false;
};
}  // namespace detail

template <Stealable Task>
class Spawner {
 public:
  /// The rank's deque. Its lock is enabled only when the rank has several workers.
  using Deque = SplitDeque<detail::Entry<Task>, SwitchableMutex>;
  /// A worker thread's own deque.
  using WorkerDeque = ChaseLevDeque<detail::Entry<Task>>;

  /// For tasks run by the rank's main thread (worker 0).
  Spawner(Deque& deque, int rank) : deque_(&deque), rank_(rank) {}
  /// For tasks run by worker thread `worker` >= 1, which owns `own`.
  Spawner(WorkerDeque& own, int rank, std::size_t worker) : own_(&own), rank_(rank), worker_(worker) {}

  /// The rank running the task.
  int rank() const { return rank_; }

  /// The worker thread running the task, in [0, workers); 0 is the rank's main thread. Stable
  /// for the task's duration, so a task may keep per-worker results without synchronization.
  std::size_t worker() const { return worker_; }

  /// Queues `task` on this worker; idle workers and thieves of other ranks may take it.
  /// Throws tessera::Error when the rank's deque is full (raise the `capacity` steal key);
  /// a worker thread's deque grows instead (std::bad_alloc if memory runs out).
  void spawn(const Task& task) {
    if (own_ != nullptr) {
      own_->push(detail::Entry<Task>{task, false});
      return;
    }
    const auto fill = [&task](detail::Entry<Task>& slot) {
      slot.task = task;
      slot.seeded = false;
    };
    if (!deque_->push_with(fill))
      throw Error(fmt::format("the task deque of rank {} is full ({} tasks): raise the capacity steal key",
                              rank_, deque_->capacity()));
  }

 private:
  Deque* deque_ = nullptr;
  WorkerDeque* own_ = nullptr;
  int rank_;
  std::size_t worker_ = 0;
};

}  // namespace tessera::collections::steal
