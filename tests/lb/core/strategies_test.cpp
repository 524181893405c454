// Built-in strategies over virtual ranks: exact plans on small inputs, the LPT bound, Algorithm
// 1's refusal to move load off underloaded ranks, and HierLB on 4096 ranks against GreedyLB.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tessera/lb/greedy_lb.hpp"
#include "tessera/lb/hier_lb.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lb/simple_lbs.hpp"
#include "tessera/lb/statistics.hpp"
#include "tessera/lb/virtual_backend.hpp"
#include "../support/lb_inputs.hpp"

namespace tessera::lb {
namespace {

using testing::make_ranks;

Plan run(Strategy& strategy, const std::vector<StrategyInput>& ranks) {
  comm::VirtualBackend backend(static_cast<Rank>(ranks.size()));
  return strategy.run(backend, ranks);
}

using testing::move;

TEST(GreedyLB, FullModeIsLongestProcessingTimeFirstWithExactPlan) {
  const auto ranks = make_ranks({{5, 4, 3}, {3, 2, 2}});
  GreedyLB greedy(GreedyLB::Options{1.003, GreedyLB::Mode::full, {}});
  const Plan plan = run(greedy, ranks);
  EXPECT_EQ(plan.migrations, (std::vector<Migration>{move(2, 0, 1), move(3, 0, 1), move(4, 1, 0), move(6, 1, 0)}));
  EXPECT_EQ(rank_loads(apply_plan(ranks, plan)), (std::vector<double>{10, 9}));
}

TEST(GreedyLB, FullModeMeetsTheLptBound) {
  std::mt19937_64 gen(7);
  std::lognormal_distribution<double> load(0.0, 1.0);
  std::vector<std::vector<double>> loads(37);
  for (std::size_t r = 0; r < loads.size(); ++r) loads[r].resize(r % 5 == 0 ? 40 : 3);
  double largest = 0.0;
  for (auto& rank : loads) {
    for (auto& l : rank) largest = std::max(largest, l = load(gen));
  }
  const auto ranks = make_ranks(loads);
  GreedyLB greedy(GreedyLB::Options{1.003, GreedyLB::Mode::full, {}});
  const Statistics after = statistics(rank_loads(apply_plan(ranks, run(greedy, ranks))));
  EXPECT_LE(after.max, after.avg() + largest);
}

TEST(GreedyLB, AlgorithmOneShedsSmallestAndFillsLeastLoadedExactly) {
  const auto ranks = make_ranks({{4, 3, 1, 1}, {1}, {2}});
  GreedyLB greedy;
  const Plan plan = run(greedy, ranks);
  EXPECT_EQ(plan.migrations, (std::vector<Migration>{move(2, 0, 1), move(3, 0, 2), move(4, 0, 2)}));
  EXPECT_EQ(rank_loads(apply_plan(ranks, plan)), (std::vector<double>{4, 4, 4}));
}

TEST(GreedyLB, AlgorithmOneNeverMovesLoadOffAnUnderloadedRank) {
  std::mt19937_64 gen(11);
  std::lognormal_distribution<double> load(0.0, 1.5);
  std::uniform_int_distribution<int> count(0, 12);
  std::vector<std::vector<double>> loads(200);
  for (auto& rank : loads) {
    rank.resize(static_cast<std::size_t>(count(gen)));
    for (auto& l : rank) l = load(gen);
  }
  const auto ranks = make_ranks(loads);
  const Statistics before = statistics(rank_loads(ranks));
  const double c = 1.003;
  GreedyLB greedy(GreedyLB::Options{c, GreedyLB::Mode::refine, {}});
  const Plan plan = run(greedy, ranks);
  ASSERT_FALSE(plan.migrations.empty());
  for (const auto& m : plan.migrations) EXPECT_GT(ranks[m.from].load(), c * before.avg()) << to_string(m.object);
  EXPECT_LT(statistics(rank_loads(apply_plan(ranks, plan))).imbalance(), before.imbalance());
}

TEST(GreedyLB, FixedObjectsStayPut) {
  auto ranks = make_ranks({{9, 1}, {}});
  ranks[0].objects[0].migratable = false;
  GreedyLB greedy(GreedyLB::Options{1.003, GreedyLB::Mode::full, {}});
  EXPECT_EQ(run(greedy, ranks).migrations, (std::vector<Migration>{move(2, 0, 1)}));
}

TEST(HierLB, SmallTreeServesTheUnderloadedChildOnTheWayUp) {
  // Tree with branching 2: 0 -> {1, 2}, 1 -> {3, 4}. Rank 3 is overloaded, its sibling 4 empty.
  const auto ranks = make_ranks({{2}, {2}, {2}, {2, 1, 1}, {}});
  HierLB hier(HierLB::Options{1.003, 1.003, 2, {}});
  const Plan plan = run(hier, ranks);
  EXPECT_EQ(plan.migrations, (std::vector<Migration>{move(5, 3, 4), move(6, 3, 4)}));
  EXPECT_EQ(rank_loads(apply_plan(ranks, plan)), (std::vector<double>{2, 2, 2, 2, 2}));
}

// Seeded skewed workload: 4096 ranks, 8 objects each, every 4th rank holding 4x as many.
std::vector<StrategyInput> skewed(Rank p) {
  std::mt19937_64 gen(2012);
  std::lognormal_distribution<double> load(-4.0, 0.5);
  std::vector<std::vector<double>> loads(static_cast<std::size_t>(p));
  for (std::size_t r = 0; r < loads.size(); ++r) {
    loads[r].resize(r % 4 == 0 ? 32 : 8);
    for (auto& l : loads[r]) l = load(gen);
  }
  return make_ranks(loads);
}

TEST(HierLB, On4096RanksPlacesEveryObjectOnceConservesLoadAndTracksGreedy) {
  const auto ranks = skewed(4096);
  HierLB hier;
  const Plan plan = run(hier, ranks);
  std::vector<ObjectId> moved;
  for (const auto& m : plan.migrations) moved.push_back(m.object);
  EXPECT_TRUE(std::adjacent_find(moved.begin(), moved.end()) == moved.end()) << "an object moves twice";

  const auto after = apply_plan(ranks, plan);
  std::vector<ObjectId> before_ids, after_ids;
  for (const auto& r : ranks) for (const auto& o : r.objects) before_ids.push_back(o.id);
  for (const auto& r : after) for (const auto& o : r.objects) after_ids.push_back(o.id);
  std::sort(before_ids.begin(), before_ids.end());
  std::sort(after_ids.begin(), after_ids.end());
  EXPECT_EQ(before_ids, after_ids);

  const Statistics initial = statistics(rank_loads(ranks));
  const Statistics hier_stats = statistics(rank_loads(after));
  EXPECT_NEAR(hier_stats.sum, initial.sum, 1e-9 * initial.sum);

  GreedyLB greedy;
  const Statistics greedy_stats = statistics(rank_loads(apply_plan(ranks, run(greedy, ranks))));
  // Stated bound: HierLB's I stays within 0.15 of GreedyLB's (here 0.117 vs 0.0065: local greedy
  // decisions judge a subtree by its average, so a large object can land on a subtree whose worst
  // rank was not low; seed 000's Table 3 shows the same gap, up to 18 % against 5.8 %).
  EXPECT_LE(hier_stats.imbalance(), greedy_stats.imbalance() + 0.15)
      << "greedy I " << greedy_stats.imbalance() << ", initial I " << initial.imbalance();
  EXPECT_LT(hier_stats.imbalance(), 0.25 * initial.imbalance()) << "greedy I " << greedy_stats.imbalance();
}

TEST(SimpleLBs, RotateAndSeededRandom) {
  const auto ranks = make_ranks({{1, 1}, {1}, {1}});
  RotateLB rotate;
  EXPECT_EQ(run(rotate, ranks).migrations,
            (std::vector<Migration>{move(1, 0, 1), move(2, 0, 1), move(3, 1, 2), move(4, 2, 0)}));
  const auto many = skewed(64);
  RandomLB a(5), b(5), c(6);
  const Plan pa = run(a, many);
  EXPECT_EQ(pa, run(b, many));
  EXPECT_NE(pa, run(c, many));
  for (const auto& m : pa.migrations) {
    EXPECT_NE(m.from, m.to);
    EXPECT_TRUE(m.to >= 0 && m.to < 64);
  }
}

}  // namespace
}  // namespace tessera::lb
