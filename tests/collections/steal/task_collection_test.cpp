// Task collections on 1, 2 and 4 ranks: every task runs exactly once under every policy,
// steal statistics are consistent, success_only never fails a steal, retentive mode re-seeds
// exactly the executed tasks and its steals fall across iterations, and option errors.
#include <tessera/collections/steal/task_collection.hpp>
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "../../support/test_runtime.hpp"

namespace tessera::collections::steal {
namespace {

constexpr Policy kPolicies[] = {Policy::random, Policy::lifeline, Policy::success_only};

// A node of a complete binary tree of height `levels`: 2^(levels+1) - 1 tasks in all.
struct Branch {
  std::int32_t level;
  std::uint32_t path;  // the branch taken at each level, so every task is distinct
};

StealOptions with_policy(Policy policy) {
  StealOptions options;
  options.policy = policy;
  options.n = 16;  // small batches: thieves get answers quickly on oversubscribed cores
  return options;
}

TEST(TaskCollection, EverySpawnedTaskRunsOnceUnderEveryPolicy) {
  Runtime& rt = tessera::testing::runtime();
  Termination& term = Termination::of(rt);
  constexpr std::int32_t kLevels = 13;
  for (const Policy policy : kPolicies) {
    SCOPED_TRACE(std::string(to_string(policy)));
    std::uint64_t path_sum = 0;  // sum of the leaves' paths: each leaf's path is distinct
    std::uint64_t leaves = 0;
    TaskCollection<Branch> tree(rt, term, with_policy(policy), [&](const Branch& b, Spawner<Branch>& s) {
      if (b.level == kLevels) {
        ++leaves;
        path_sum += b.path;
        return;
      }
      s.spawn(Branch{b.level + 1, b.path * 2});
      s.spawn(Branch{b.level + 1, b.path * 2 + 1});
    });
    if (rt.rank() == 0) tree.seed(Branch{0, 0});
    const IterationStats stats = tree.process();
    const RankStats total = stats.total();
    EXPECT_EQ(total.tasks_executed, (std::uint64_t{2} << kLevels) - 1);
    EXPECT_EQ(rt.collectives().allreduce(leaves, op::sum{}), std::uint64_t{1} << kLevels);
    // Leaves' paths are 0 .. 2^levels - 1, each once.
    const std::uint64_t n = std::uint64_t{1} << kLevels;
    EXPECT_EQ(rt.collectives().allreduce(path_sum, op::sum{}), n * (n - 1) / 2);
    ASSERT_EQ(stats.ranks.size(), static_cast<std::size_t>(rt.size()));
    EXPECT_EQ(stats.iteration, 1U);
    EXPECT_LE(total.steals_successful + total.steals_failed, total.steals_attempted);
    if (rt.size() == 1) {
      EXPECT_EQ(total.steals_attempted, 0U);
    }
    if (policy == Policy::success_only) {
      EXPECT_EQ(total.steals_failed, 0U);
    }
    if (policy != Policy::lifeline) {
      EXPECT_EQ(total.lifeline_activations, 0U);
    }
  }
}

// Seed 000 Figure 7 in miniature: 48 tasks of persistent, skewed durations, all seeded on
// rank 0. Without retention every iteration starts from that bad seeding; with it each rank
// keeps what it ran, so later iterations need fewer successful steals.
struct Chunk {
  std::int32_t id;
  std::int32_t micros;
};

std::vector<IterationStats> run_iterations(bool retentive, int iterations, std::uint64_t& executed_ids) {
  Runtime& rt = tessera::testing::runtime();
  StealOptions options = with_policy(Policy::lifeline);
  options.n = 1;
  options.retentive = retentive;
  executed_ids = 0;
  TaskCollection<Chunk> chunks(rt, Termination::of(rt), options, [&](const Chunk& c, Spawner<Chunk>&) {
    executed_ids += static_cast<std::uint64_t>(c.id);
    std::this_thread::sleep_for(std::chrono::microseconds(c.micros));
  });
  if (rt.rank() == 0)
    for (std::int32_t id = 1; id <= 48; ++id) chunks.seed(Chunk{id, 200 + 40 * (id % 5)});
  std::vector<IterationStats> stats;
  for (int i = 0; i < iterations; ++i) {
    if (i > 0) chunks.restore();
    stats.push_back(chunks.process());
  }
  return stats;
}

TEST(TaskCollection, RestoreRerunsEveryTaskAndRetentionReducesSteals) {
  Runtime& rt = tessera::testing::runtime();
  constexpr int kIterations = 4;
  std::uint64_t ids = 0;
  const std::vector<IterationStats> plain = run_iterations(false, kIterations, ids);
  EXPECT_EQ(rt.collectives().allreduce(ids, op::sum{}), kIterations * 48ULL * 49 / 2);
  const std::vector<IterationStats> kept = run_iterations(true, kIterations, ids);
  EXPECT_EQ(rt.collectives().allreduce(ids, op::sum{}), kIterations * 48ULL * 49 / 2);
  for (int i = 0; i < kIterations; ++i) {
    EXPECT_EQ(plain[i].total().tasks_executed, 48U);
    EXPECT_EQ(kept[i].total().tasks_executed, 48U);
    EXPECT_EQ(kept[i].iteration, static_cast<std::uint32_t>(i + 1));
  }
  if (rt.size() == 1) return;
  // Without retention rank 0 holds everything each time: every other rank must steal.
  for (const IterationStats& s : plain) EXPECT_GE(s.total().steals_successful, static_cast<std::uint64_t>(rt.size() - 1));
  EXPECT_GE(kept.front().total().steals_successful, static_cast<std::uint64_t>(rt.size() - 1));
  EXPECT_LT(kept.back().total().steals_successful, kept.front().total().steals_successful);
}

TEST(TaskCollection, RestoreSeedsExactlyTheTasksEachRankRan) {
  Runtime& rt = tessera::testing::runtime();
  for (const bool retentive : {false, true}) {
    SCOPED_TRACE(retentive ? "retentive" : "plain");
    StealOptions options = with_policy(Policy::random);
    options.retentive = retentive;
    TaskCollection<Chunk> chunks(rt, Termination::of(rt), options, [](const Chunk& c, Spawner<Chunk>&) {
      std::this_thread::sleep_for(std::chrono::microseconds(c.micros));
    });
    if (rt.rank() == 0)
      for (std::int32_t id = 0; id < 32; ++id) chunks.seed(Chunk{id, 100});
    EXPECT_EQ(chunks.queued(), rt.rank() == 0 ? 32 : 0);
    const IterationStats first = chunks.process();
    EXPECT_EQ(chunks.queued(), 0);
    chunks.restore();
    const auto ran_here = static_cast<std::int64_t>(first.ranks[static_cast<std::size_t>(rt.rank())].tasks_executed);
    EXPECT_EQ(chunks.queued(), retentive ? ran_here : (rt.rank() == 0 ? 32 : 0));
    EXPECT_EQ(chunks.process().total().tasks_executed, 32U);
  }
}

TEST(StealOptions, KeysAndPoliciesAreValidated) {
  StealOptions options;
  parse_steal_keys(options, {"w=3", "l=4", "n=64", "threshold=5", "capacity=1024", "retentive=1", "seed=9", "spin_us=0", "sleep_us=7"});
  EXPECT_EQ(options.w, 3);
  EXPECT_EQ(options.l, 4);
  EXPECT_EQ(options.n, 64);
  EXPECT_EQ(options.threshold, 5);
  EXPECT_EQ(options.capacity, 1024);
  EXPECT_TRUE(options.retentive);
  EXPECT_EQ(options.seed, 9U);
  EXPECT_EQ(options.spin_us, 0);
  EXPECT_EQ(options.sleep_us, 7);
  EXPECT_EQ(parse_policy("success_only"), Policy::success_only);
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { parse_policy("greedy"); }),
            "unknown steal policy 'greedy': expected random, lifeline or success_only");
  EXPECT_EQ(message([&] { parse_steal_keys(options, {"l=1"}); }), "steal keys: l=1: expected an integer in [2, 2147483647]");
  EXPECT_EQ(message([&] { parse_steal_keys(options, {"n=x"}); }), "steal keys: n=x: expected an integer in [1, 2147483647]");
  EXPECT_EQ(message([&] { parse_steal_keys(options, {"w"}); }), "steal keys: malformed argument 'w': expected key=value");
  EXPECT_EQ(message([&] { parse_steal_keys(options, {"w=1", "w=2"}); }), "steal keys: key 'w' given twice");
  EXPECT_EQ(message([&] { parse_steal_keys(options, {"z=2"}); }),
            "steal keys: unknown key 'z'; valid keys: w, l, n, threshold, capacity, retentive, seed, spin_us, sleep_us");
  // Keys not given keep what the program chose, not the parser's defaults.
  StealOptions chosen;
  chosen.w = 5;
  chosen.n = 17;
  parse_steal_keys(chosen, {"l=3"});
  EXPECT_EQ(chosen.w, 5);
  EXPECT_EQ(chosen.n, 17);
  EXPECT_EQ(chosen.l, 3);
}

}  // namespace
}  // namespace tessera::collections::steal
