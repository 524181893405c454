// Task collections with two worker threads per rank (--tessera_workers=2) on 1 and 2 ranks:
// every task runs exactly once under every policy while the task function runs on two threads
// at once, work spawned on either thread is found, and retentive restore re-seeds exactly the
// seeded tasks the rank's threads ran.
#include <tessera/collections/steal/task_collection.hpp>
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "../../support/test_runtime.hpp"

namespace tessera::collections::steal {
namespace {

constexpr Policy kPolicies[] = {Policy::random, Policy::lifeline, Policy::success_only};

struct Branch {
  std::int32_t level;
  std::uint32_t path;
};

StealOptions two_workers(Policy policy) {
  StealOptions options;
  options.policy = policy;
  options.n = 16;
  options.workers = 2;
  return options;
}

// Per-worker tallies: the task function runs on both threads at once.
struct Tally {
  std::uint64_t leaves = 0;
  std::uint64_t path_sum = 0;
  std::uint64_t tasks = 0;
};

TEST(TaskCollectionWorkers, EverySpawnedTaskRunsOnceUnderEveryPolicy) {
  Runtime& rt = tessera::testing::runtime();
  constexpr std::int32_t kLevels = 14;
  for (const Policy policy : kPolicies) {
    SCOPED_TRACE(std::string(to_string(policy)));
    std::vector<CacheAligned<Tally>> tallies(2);
    TaskCollection<Branch> tree(rt, Termination::of(rt), two_workers(policy), [&](const Branch& b, Spawner<Branch>& s) {
      Tally& tally = tallies.at(s.worker()).value;
      ++tally.tasks;
      if (b.level == kLevels) {
        ++tally.leaves;
        tally.path_sum += b.path;
        return;
      }
      s.spawn(Branch{b.level + 1, b.path * 2});
      s.spawn(Branch{b.level + 1, b.path * 2 + 1});
    });
    ASSERT_EQ(tree.workers(), 2U);
    if (rt.rank() == 0) tree.seed(Branch{0, 0});
    const IterationStats stats = tree.process();
    const std::uint64_t n = std::uint64_t{1} << kLevels;
    EXPECT_EQ(stats.total().tasks_executed, 2 * n - 1);
    const std::uint64_t mine = tallies[0].value.tasks + tallies[1].value.tasks;
    EXPECT_EQ(stats.ranks[static_cast<std::size_t>(rt.rank())].tasks_executed, mine);
    EXPECT_EQ(rt.collectives().allreduce(tallies[0].value.leaves + tallies[1].value.leaves, op::sum{}), n);
    EXPECT_EQ(rt.collectives().allreduce(tallies[0].value.path_sum + tallies[1].value.path_sum, op::sum{}),
              n * (n - 1) / 2);
    if (policy == Policy::success_only) {
      EXPECT_EQ(stats.total().steals_failed, 0U);
    }
    if (rt.size() == 1) {
      EXPECT_EQ(stats.total().steals_attempted, 0U);
    }
  }
}

struct Chunk {
  std::int32_t id;
  std::int32_t micros;
};

// 64 sleeping tasks seeded on rank 0: the worker thread of rank 0 must take some of them (the
// main thread sleeps in each for 200 us while the worker thread polls), and with retention each
// rank is re-seeded with exactly the tasks its two threads ran.
TEST(TaskCollectionWorkers, WorkerThreadsRunTasksAndRetentionKeepsThem) {
  Runtime& rt = tessera::testing::runtime();
  for (const bool retentive : {false, true}) {
    SCOPED_TRACE(retentive ? "retentive" : "plain");
    StealOptions options = two_workers(Policy::lifeline);
    options.n = 1;
    options.retentive = retentive;
    std::vector<CacheAligned<std::uint64_t>> ids(2);
    std::vector<CacheAligned<std::uint64_t>> on_worker(2);
    TaskCollection<Chunk> chunks(rt, Termination::of(rt), options, [&](const Chunk& c, Spawner<Chunk>& s) {
      ids.at(s.worker()).value += static_cast<std::uint64_t>(c.id);
      ++on_worker.at(s.worker()).value;
      std::this_thread::sleep_for(std::chrono::microseconds(c.micros));
    });
    if (rt.rank() == 0)
      for (std::int32_t id = 1; id <= 64; ++id) chunks.seed(Chunk{id, 200});
    const IterationStats first = chunks.process();
    EXPECT_EQ(first.total().tasks_executed, 64U);
    EXPECT_EQ(rt.collectives().allreduce(ids[0].value + ids[1].value, op::sum{}), 64ULL * 65 / 2);
    EXPECT_GT(rt.collectives().allreduce(on_worker[1].value, op::sum{}), 0U);
    chunks.restore();
    const auto ran_here = static_cast<std::int64_t>(first.ranks[static_cast<std::size_t>(rt.rank())].tasks_executed);
    EXPECT_EQ(chunks.queued(), retentive ? ran_here : (rt.rank() == 0 ? 64 : 0));
    EXPECT_EQ(chunks.process().total().tasks_executed, 64U);
  }
}

}  // namespace
}  // namespace tessera::collections::steal
