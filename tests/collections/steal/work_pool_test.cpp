// Seed 002's two schemes (work_pool.hpp): static assignment by generations, and ABP deques
// with stealing, run over the same task bodies.
#include "tessera/collections/steal/work_pool.hpp"

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::collections::steal {
namespace {

// A node of a complete tree of the given fanout; each task spawns its children.
struct TreeTask {
  std::int32_t depth;
  std::int32_t id;
};

struct TreeRun {
  WorkPoolRun run;
  std::vector<int> visits;  // by node id in breadth-first numbering
};

// The complete `fanout`-ary tree of height `height`, nodes numbered breadth-first.
TreeRun run_tree(WorkPoolScheme scheme, std::size_t workers, std::int32_t fanout, std::int32_t height,
                 std::int64_t deque_capacity) {
  std::int32_t nodes = 0;
  for (std::int32_t level = 0, width = 1; level <= height; ++level, width *= fanout) nodes += width;
  std::vector<std::atomic<int>> visits(static_cast<std::size_t>(nodes));
  const TreeTask root{0, 0};
  const WorkPoolShape shape{static_cast<std::size_t>(fanout), deque_capacity};
  TreeRun result;
  result.run = run_work_pool(scheme, workers, shape, std::span(&root, 1), [&](const TreeTask& task, auto& context) {
    visits[static_cast<std::size_t>(task.id)].fetch_add(1, std::memory_order_relaxed);
    if (task.depth == height) return;
    for (std::int32_t c = 1; c <= fanout; ++c) context.spawn(TreeTask{task.depth + 1, task.id * fanout + c});
  });
  for (const auto& v : visits) result.visits.push_back(v.load());
  return result;
}

TEST(WorkPool, BothSchemesRunEveryTaskExactlyOnce) {
  for (const WorkPoolScheme scheme : {WorkPoolScheme::static_assignment, WorkPoolScheme::dynamic}) {
    for (const std::size_t workers : {1u, 2u, 3u}) {
      const TreeRun tree = run_tree(scheme, workers, 3, 9, 3 * 9 + 1);
      EXPECT_EQ(tree.run.tasks, 29524u) << to_string(scheme) << " on " << workers;  // (3^10 - 1) / 2
      EXPECT_EQ(std::count(tree.visits.begin(), tree.visits.end(), 1), 29524) << to_string(scheme);
    }
  }
}

// Seed 002's storage figure. Static: the largest generation, the 3^9 leaves. Dynamic: a
// depth-first owner holds fanout - 1 pending siblings on each level above the one it expands
// plus that node's children, so one worker's deque reaches (fanout - 1) * (height - 1) +
// fanout = 19 slots here.
TEST(WorkPool, PeakTasksIsTheLargestGenerationOrTheDeepestDequeTimesWorkers) {
  const TreeRun by_generations = run_tree(WorkPoolScheme::static_assignment, 2, 3, 9, 0);
  EXPECT_EQ(by_generations.run.peak_tasks, 19683);
  EXPECT_EQ(by_generations.run.generations, 10);
  const TreeRun one = run_tree(WorkPoolScheme::dynamic, 1, 3, 9, 28);
  EXPECT_EQ(one.run.peak_tasks, 19);
  const TreeRun two = run_tree(WorkPoolScheme::dynamic, 2, 3, 9, 28);
  EXPECT_LE(two.run.peak_tasks, 2 * 28);
  EXPECT_EQ(two.run.peak_tasks % 2, 0);
}

TEST(WorkPool, ADequeTooSmallForTheSearchThrowsLengthError) {
  EXPECT_THROW(run_tree(WorkPoolScheme::dynamic, 2, 3, 9, 10), std::length_error);
}

TEST(WorkPool, StaticRejectsATaskSpawningMoreThanMaxSpawn) {
  const TreeTask root{0, 0};
  StaticWorkPool<TreeTask> pool(2, 1);
  EXPECT_THROW(pool.run(std::span(&root, 1),
                        [](const TreeTask& task, StaticContext<TreeTask>& context) {
                          if (task.depth > 0) return;
                          context.spawn(TreeTask{1, 1});
                          context.spawn(TreeTask{1, 2});
                        }),
               std::length_error);
}

TEST(WorkPool, ATaskThatThrowsEndsTheRunAndIsRethrown) {
  for (const WorkPoolScheme scheme : {WorkPoolScheme::static_assignment, WorkPoolScheme::dynamic}) {
    const TreeTask root{0, 0};
    const auto body = [](const TreeTask& task, auto& context) {
      if (task.depth == 5) throw std::runtime_error("boom");
      context.spawn(TreeTask{task.depth + 1, 0});
      context.spawn(TreeTask{task.depth + 1, 0});
    };
    EXPECT_THROW(run_work_pool(scheme, 2, WorkPoolShape{2, 64}, std::span(&root, 1), body), std::runtime_error)
        << to_string(scheme);
  }
}

TEST(WorkPool, NoSeedsRunsNothing) {
  for (const WorkPoolScheme scheme : {WorkPoolScheme::static_assignment, WorkPoolScheme::dynamic}) {
    const WorkPoolRun run = run_work_pool(scheme, 2, WorkPoolShape{1, 1}, std::span<const TreeTask>(),
                                          [](const TreeTask&, auto&) {});
    EXPECT_EQ(run.tasks, 0u);
    EXPECT_EQ(run.generations, 0);
  }
}

TEST(WorkPool, StaticSplitsEachGenerationEvenlyAmongTheWorkers) {
  // 10 seeds, no subtasks, 3 workers: slices of 3, 3 and 4.
  std::vector<TreeTask> seeds(10, TreeTask{0, 0});
  StaticWorkPool<TreeTask> pool(3, 1);
  const StaticPoolStats stats =
      pool.run(std::span<const TreeTask>(seeds), [](const TreeTask&, StaticContext<TreeTask>&) {});
  ASSERT_EQ(stats.workers.size(), 3u);
  EXPECT_EQ(stats.workers[0].tasks_executed, 3u);
  EXPECT_EQ(stats.workers[1].tasks_executed, 3u);
  EXPECT_EQ(stats.workers[2].tasks_executed, 4u);
  EXPECT_EQ(stats.generations, 1);
}

TEST(WorkPool, SchemeNamesRoundTrip) {
  EXPECT_EQ(parse_work_pool_scheme("static"), WorkPoolScheme::static_assignment);
  EXPECT_EQ(parse_work_pool_scheme("dynamic"), WorkPoolScheme::dynamic);
  EXPECT_EQ(parse_work_pool_scheme("sequential"), std::nullopt);
  EXPECT_STREQ(to_string(WorkPoolScheme::dynamic), "dynamic");
}

TEST(WorkPool, RejectsZeroWorkers) {
  EXPECT_THROW(StaticWorkPool<TreeTask>(0, 1), std::invalid_argument);
  EXPECT_THROW(StaticWorkPool<TreeTask>(1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::collections::steal
