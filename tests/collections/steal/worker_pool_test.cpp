#include "tessera/collections/steal/worker_pool.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::collections::steal {
namespace {

// A node of a complete binary tree; each task spawns its two children.
struct TreeTask {
  std::int32_t depth;
};

std::uint64_t count_complete_tree(std::size_t workers, std::int32_t depth, PoolStats* stats) {
  WorkerPool<TreeTask> pool(workers);
  std::vector<CacheAligned<std::uint64_t>> visited(workers);
  const TreeTask root{0};
  *stats = pool.run(std::span(&root, 1), [&](const TreeTask& task, WorkerContext<TreeTask>& context) {
    ++visited[context.worker()].value;
    if (task.depth < depth) {
      context.spawn(TreeTask{task.depth + 1});
      context.spawn(TreeTask{task.depth + 1});
    }
  });
  std::uint64_t total = 0;
  for (const auto& count : visited) {
    total += count.value;
  }
  return total;
}

TEST(WorkerPool, RunsEverySpawnedTaskExactlyOnce) {
  constexpr std::int32_t kDepth = 16;
  constexpr std::uint64_t kNodes = (std::uint64_t{1} << (kDepth + 1)) - 1;
  for (const std::size_t workers : {1U, 2U, 4U}) {
    SCOPED_TRACE(testing::Message() << workers << " workers");
    PoolStats stats;
    EXPECT_EQ(count_complete_tree(workers, kDepth, &stats), kNodes);
    ASSERT_EQ(stats.workers.size(), workers);
    const WorkerStats total = stats.total();
    EXPECT_EQ(total.tasks_executed, kNodes);
    EXPECT_LE(total.steals_successful + total.steals_lost_race, total.steals_attempted);
    if (workers == 1) {
      EXPECT_EQ(total.steals_attempted, 0U);
    }
  }
}

// The root spawns one child and then waits for it: only the other worker can run that
// child, so it must be stolen, exactly once. (Which worker runs the root is a race: worker
// 1 may steal the root from worker 0's deque before worker 0 starts.)
TEST(WorkerPool, AnIdleWorkerStealsWorkFromABusyOne) {
  WorkerPool<TreeTask> pool(2);
  std::atomic<bool> child_done{false};
  std::atomic<std::size_t> root_worker{99};
  std::atomic<std::size_t> child_worker{99};
  const TreeTask root{0};
  const PoolStats stats = pool.run(std::span(&root, 1), [&](const TreeTask& task, WorkerContext<TreeTask>& context) {
    if (task.depth == 1) {
      child_worker.store(context.worker());
      child_done.store(true);
      return;
    }
    root_worker.store(context.worker());
    context.spawn(TreeTask{1});
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!child_done.load() && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::yield();
    }
  });
  ASSERT_TRUE(child_done.load());
  ASSERT_LT(root_worker.load(), 2U);
  EXPECT_EQ(child_worker.load(), 1 - root_worker.load());
  EXPECT_EQ(stats.workers[0].tasks_executed, 1U);
  EXPECT_EQ(stats.workers[1].tasks_executed, 1U);
  EXPECT_EQ(stats.workers[child_worker.load()].steals_successful, 1U);
  // Worker 0 owns the root's deque; it steals only if worker 1 took the root first.
  EXPECT_EQ(stats.total().steals_successful, root_worker.load() == 0 ? 1U : 2U);
}

TEST(WorkerPool, RunsEverySeedOnceAndCanBeRunAgain) {
  WorkerPool<std::int64_t> pool(3);
  std::vector<std::int64_t> seeds(1000);
  std::iota(seeds.begin(), seeds.end(), 1);
  for (int round = 0; round < 2; ++round) {
    std::vector<CacheAligned<std::int64_t>> sums(pool.workers());
    const PoolStats stats = pool.run(std::span<const std::int64_t>(seeds),
                                     [&](const std::int64_t& value, WorkerContext<std::int64_t>& context) {
                                       sums[context.worker()].value += value;
                                     });
    std::int64_t sum = 0;
    for (const auto& s : sums) {
      sum += s.value;
    }
    EXPECT_EQ(sum, 500'500);
    EXPECT_EQ(stats.total().tasks_executed, 1000U);
  }
}

TEST(WorkerPool, NoSeedsReturnsAtOnce) {
  WorkerPool<int> pool(2);
  const PoolStats stats = pool.run(std::span<const int>(), [](const int&, WorkerContext<int>&) {});
  EXPECT_EQ(stats.total().tasks_executed, 0U);
}

TEST(WorkerPool, ATaskThatThrowsStopsThePoolAndRethrows) {
  WorkerPool<TreeTask> pool(2);
  const TreeTask root{0};
  EXPECT_THROW(
      {
        pool.run(std::span(&root, 1), [](const TreeTask& task, WorkerContext<TreeTask>& context) {
          if (task.depth == 12) {
            throw std::runtime_error("task failed at depth 12");
          }
          context.spawn(TreeTask{task.depth + 1});
          context.spawn(TreeTask{task.depth + 1});
        });
      },
      std::runtime_error);
}

TEST(WorkerPool, RejectsZeroWorkers) { EXPECT_THROW(WorkerPool<int>(0), std::invalid_argument); }

}  // namespace
}  // namespace tessera::collections::steal
