#pragma once
/// What a task of a task collection sees: the rank it runs on, and how to create more tasks.
///
/// Each rank has one thread, which runs tasks and answers thieves in turns, so the rank's split
/// deque needs no lock (NoLock).
#include "tessera/collections/steal/split_deque.hpp"

#include <tessera/runtime/error.hpp>

#include <fmt/format.h>

namespace tessera::collections::steal {

namespace detail {
/// A queued task. `seeded` marks tasks of the collection's seed set (seeded, restored or stolen
/// from one), the only ones retentive mode re-seeds: spawned tasks are recreated by their parents.
template <Stealable Task>
struct alignas(8) Entry {  // whole words: copies in and out of the deque stay aligned
  Task task;
  bool seeded = false;
};
}  // namespace detail

template <Stealable Task>
class Spawner {
 public:
  using Deque = SplitDeque<detail::Entry<Task>, NoLock>;

  Spawner(Deque& deque, int rank) : deque_(deque), rank_(rank) {}

  /// The rank running the task.
  int rank() const { return rank_; }

  /// Queues `task` on this rank; thieves may take it. Throws tessera::Error when the rank's
  /// deque is full (raise the `capacity` steal key).
  void spawn(const Task& task) {
    if (!deque_.push(detail::Entry<Task>{task, false}))
      throw Error(fmt::format("the task deque of rank {} is full ({} tasks): raise the capacity steal key",
                              rank_, deque_.capacity()));
  }

 private:
  Deque& deque_;
  int rank_;
};

}  // namespace tessera::collections::steal
