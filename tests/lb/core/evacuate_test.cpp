// Elastic shrink on virtual ranks (lb/evacuate.hpp): leaving ranks are emptied of every
// migratable object, nothing moves onto them, every strategy places the rest, and each object
// moves at most once, from where it is to where it ends.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>

#include "tessera/lb/evacuate.hpp"
#include "tessera/lb/greedy_lb.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lb/statistics.hpp"
#include "tessera/lb/virtual_backend.hpp"
#include "../support/lb_inputs.hpp"

namespace tessera::lb {
namespace {

using testing::make_ranks;
using testing::mark_leaving;
using testing::move;

Plan shrink(Strategy& strategy, const std::vector<StrategyInput>& ranks) {
  comm::VirtualBackend backend(static_cast<Rank>(ranks.size()));
  return run_shrinking(strategy, backend, ranks);
}

TEST(Shrink, GreedyLBEvacuatesThenBalancesTheStayingRanksExactly) {
  // Rank 1 leaves: its objects 3 (load 3) and 4 (load 2) go, largest first, to the least loaded
  // staying rank (2, then 2 again at 4 < 5). GreedyLB then balances over the 2 staying ranks
  // (average 5.5): rank 2 at 6 sheds its smallest, object 5, which goes to rank 0 (5 = 5, lower rank).
  auto ranks = make_ranks({{4, 1}, {3, 2}, {1}});
  mark_leaving(ranks, {1});
  GreedyLB greedy;
  const Plan plan = shrink(greedy, ranks);
  EXPECT_EQ(plan.migrations, (std::vector<Migration>{move(3, 1, 2), move(4, 1, 2), move(5, 2, 0)}));
  EXPECT_EQ(rank_loads(apply_plan(ranks, plan)), (std::vector<double>{6, 0, 5}));
}

TEST(Shrink, AnObjectEvacuatedAndPlacedAgainMovesOnceFromTheLeavingRank) {
  // Rank 0 leaves: object 1 goes to rank 1 (1.5 < 2). GreedyLB's full mode then deals every
  // object, largest first, to the least loaded staying rank: 3 to rank 1 (a tie: the lower rank),
  // 2 to rank 2, and 1 to rank 2 as well. The plan moves object 1 once, from rank 0 to rank 2.
  auto ranks = make_ranks({{1}, {1.5}, {2}});
  mark_leaving(ranks, {0});
  GreedyLB greedy(GreedyLB::Options{1.003, GreedyLB::Mode::full, {}});
  const Plan plan = shrink(greedy, ranks);
  EXPECT_EQ(plan.migrations, (std::vector<Migration>{move(1, 0, 2), move(2, 1, 2), move(3, 2, 1)}));
  EXPECT_EQ(rank_loads(apply_plan(ranks, plan)), (std::vector<double>{0, 2, 2.5}));
}

TEST(Shrink, ObjectsThatCannotMigrateStayOnTheLeavingRank) {
  auto ranks = make_ranks({{2, 3}, {1}});
  ranks[0].objects[0].migratable = false;
  mark_leaving(ranks, {0});
  GreedyLB greedy;
  const Plan plan = shrink(greedy, ranks);
  EXPECT_EQ(plan.migrations, (std::vector<Migration>{move(2, 0, 1)}));
}

TEST(Shrink, EveryRankLeavingOrAWrongStayingCountIsRefused) {
  GreedyLB greedy;
  auto all = make_ranks({{1}, {2}});
  mark_leaving(all, {0, 1});
  EXPECT_THROW(shrink(greedy, all), std::invalid_argument);
  auto wrong = make_ranks({{1}, {2}, {3}});
  mark_leaving(wrong, {2});
  wrong[1].staying = 3;
  EXPECT_THROW(shrink(greedy, wrong), std::invalid_argument);
}

class ShrinkEveryStrategy : public ::testing::TestWithParam<const char*> {};

// 64 ranks of lognormal objects, 3 of them (one interior, the last, the first) leaving: nothing is
// left on them but what cannot move, nothing moves onto them, each object moves at most once, the
// load is conserved, and the staying ranks end better balanced than the evacuation alone left them.
TEST_P(ShrinkEveryStrategy, EmptiesTheLeavingRanksAndBalancesTheRest) {
  std::mt19937_64 gen(11);
  std::lognormal_distribution<double> load(0.0, 1.0);
  std::vector<std::vector<double>> loads(64);
  for (std::size_t r = 0; r < loads.size(); ++r) {
    loads[r].resize(r < 8 ? 30 : 6);
    for (double& l : loads[r]) l = load(gen);
  }
  auto ranks = make_ranks(loads);
  ranks[20].objects[0].migratable = false;  // stays on leaving rank 20
  const std::set<Rank> leaving{0, 20, 63};
  mark_leaving(ranks, leaving);
  const auto strategy = Registry::builtin().create(GetParam(), "");
  comm::VirtualBackend backend(64);
  const Evacuation evacuated = evacuate(backend, ranks);
  const Plan plan = shrink(*strategy, ranks);

  std::set<ObjectId> moved;
  for (const Migration& m : plan.migrations) {
    EXPECT_FALSE(leaving.contains(m.to)) << to_string(m.object) << " to rank " << m.to;
    EXPECT_TRUE(moved.insert(m.object).second) << to_string(m.object) << " moves twice";
  }
  const auto after = apply_plan(ranks, plan);
  EXPECT_TRUE(after[0].objects.empty());
  EXPECT_TRUE(after[63].objects.empty());
  ASSERT_EQ(after[20].objects.size(), 1U);
  EXPECT_FALSE(after[20].objects[0].migratable);
  double before_total = 0.0, after_total = 0.0;
  for (double l : rank_loads(ranks)) before_total += l;
  for (double l : rank_loads(after)) after_total += l;
  EXPECT_NEAR(after_total, before_total, 1e-9 * before_total);
  // Over the staying ranks only.
  const auto staying_max = [&](const std::vector<StrategyInput>& placed) {
    double max = 0.0;
    for (const auto& r : placed)
      if (!leaving.contains(r.rank)) max = std::max(max, r.load());
    return max;
  };
  EXPECT_LT(staying_max(after), staying_max(evacuated.hosted)) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Strategies, ShrinkEveryStrategy,
                         ::testing::Values("GreedyLB", "HierLB", "GrapevineLB", "TemperedLB"));

}  // namespace
}  // namespace tessera::lb
