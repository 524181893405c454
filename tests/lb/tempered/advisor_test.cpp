// The advisor (`lbsim advise`, tessera/lb/advisor.hpp) on a hand-made recording whose answers
// are known by construction: two ranks, objects of 3 s and 3 s on rank 0 and 1 s and 1 s on rank 1
// in each of phases 0..3. No LB costs 4 x 6 s; no placement beats 4 s a phase (the average), and
// phase 0 runs before any balancing can act, so 6 + 3 x 4 = 18 s is the best any option can do.

#include <gtest/gtest.h>

#include <algorithm>

#include "tessera/lb/advisor.hpp"

namespace tessera::lb {
namespace {

LbData two_rank_data(double footprint_bytes = 0.0) {
  const double loads[2][2] = {{3.0, 3.0}, {1.0, 1.0}};
  LbData data;
  for (int r = 0; r < 2; ++r) {
    RankData rank;
    rank.rank = r;
    for (int p = 0; p < 4; ++p) {
      Phase phase{p, {}, {}};
      for (int i = 0; i < 2; ++i) {
        Task task;
        task.entity.id = ObjectId::sequential(static_cast<std::uint64_t>(2 * r + i), 0);
        task.entity.collection_id = 0;
        task.entity.migratable = true;
        task.node = r;
        task.time = loads[r][i];
        if (footprint_bytes > 0.0) task.user_defined = "{\"task_footprint_bytes\":" + std::to_string(footprint_bytes) + "}";
        phase.tasks.push_back(task);
      }
      rank.phases.push_back(phase);
    }
    data.ranks.push_back(rank);
  }
  return data;
}

CostModel free_balancing() {
  CostModel cost;
  cost.latency_s = 0.0;
  cost.strategy_s = 0.0;
  return cost;
}

AdviseOption option(std::string strategy, std::string args, std::string interval, std::string model = "persistence") {
  return AdviseOption{std::move(strategy), std::move(args), std::move(interval), parse_load_model(model)};
}

const AdviceRow& row_of(const std::vector<AdviceRow>& rows, const std::string& flags) {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const AdviceRow& r) { return r.option.flags() == flags; });
  EXPECT_NE(it, rows.end()) << flags;
  return *it;
}

TEST(Advisor, NoLbCostsEveryPhaseItsMostLoadedRank) {
  const ReplayData data(two_rank_data(), 0, 3);
  const ReplayResult none = replay(data, AdviseOption{}, free_balancing());
  EXPECT_EQ(none.predicted_s, 24.0);
  EXPECT_EQ(none.migrations, 0);
  EXPECT_EQ(none.balancings, 0);
  // A sub-range replays only its phases (phase 0 warms the history up).
  EXPECT_EQ(replay(ReplayData(two_rank_data(), 1, 2), AdviseOption{}, free_balancing()).predicted_s, 12.0);
}

TEST(Advisor, ABalancingActsOnThePhasesAfterIt) {
  const ReplayData data(two_rank_data(), 0, 3);
  // Interval 50 balances after phase 0 only (0 % 50 == 0); LPT then splits 3+1 | 3+1.
  const ReplayResult once = replay(data, option("GreedyLB", "mode=full", "50"), free_balancing());
  EXPECT_EQ(once.predicted_s, 6.0 + 3 * 4.0);
  EXPECT_EQ(once.balancings, 1);
  // Auto: every phase loses 6 - 1.05 x 4 = 1.8 s, counted from phase 1 on (an imbalance counts
  // once it persists). No balancing has been measured, so one is taken to cost one phase's average
  // load, 4 s: 3 x 1.8 s exceeds it only after phase 3, the last, too late to act on any phase.
  const ReplayResult automatic = replay(data, option("GreedyLB", "mode=full", "auto"), free_balancing());
  EXPECT_EQ(automatic.predicted_s, 24.0);
  EXPECT_EQ(automatic.balancings, 1);
  // Interval 1 balances after every phase, each at the fixed strategy cost.
  CostModel priced = free_balancing();
  priced.strategy_s = 0.25;
  const ReplayResult every = replay(data, option("GreedyLB", "mode=full", "1"), priced);
  EXPECT_EQ(every.balancings, 4);
  EXPECT_EQ(every.strategy_s, 1.0);
  EXPECT_EQ(every.predicted_s, 18.0 + 1.0);
}

TEST(Advisor, MigrationCostsBytesOverBandwidthPlusLatencyOnTheBusiestRank) {
  // GreedyLB refine: rank 0 (6 > 1.003 x 4) sheds one 3 s object, which goes to rank 1: 3 | 5,
  // then after phase 1 rank 1 sheds a 1 s object back: 4 | 4. Each moves 2e9 bytes at 1 GB/s.
  const ReplayData data(two_rank_data(2e9), 0, 3);
  CostModel cost = free_balancing();
  cost.latency_s = 0.5;
  const ReplayResult refine = replay(data, option("GreedyLB", "mode=refine", "1"), cost);
  EXPECT_EQ(refine.migrations, 2);
  EXPECT_EQ(refine.migration_s, 2 * (2.0 + 0.5));
  EXPECT_EQ(refine.phases_s, 6.0 + 5.0 + 4.0 + 4.0);
  EXPECT_EQ(refine.predicted_s, 19.0 + 5.0);
}

TEST(Advisor, DefaultBandwidthIsWhatTheRecordedRunMeasuredOfItsOwnMigrations) {
  LbData data = two_rank_data();
  CostModel cost;
  use_recorded_bandwidth(ReplayData(data, 0, 3), cost);
  EXPECT_EQ(cost.bandwidth_Bps, 1e9);  // none recorded: the constant stays
  EXPECT_EQ(cost.bandwidth_source, "lbsim's default; the LB data records no migrations of its own");
  data.ranks[0].metadata_extra = R"({"migration_bytes":3e9,"migration_s":2.0})";
  data.ranks[1].metadata_extra = R"({"migration_bytes":1e9,"migration_s":2.0})";
  const ReplayData recorded(data, 0, 3);
  EXPECT_EQ(recorded.recorded_bandwidth_Bps(), 1e9);  // 4e9 bytes in 4 s of the ranks' own time
  data.ranks[1].metadata_extra = R"({"migration_bytes":5e9,"migration_s":2.0})";
  use_recorded_bandwidth(ReplayData(data, 0, 3), cost);
  EXPECT_EQ(cost.bandwidth_Bps, 2e9);
  EXPECT_EQ(cost.bandwidth_source, "what the recorded run measured of its own migrations");
}

TEST(Advisor, RanksTheBestOptionFirstAndGainIsOverNoLb) {
  const ReplayData data(two_rank_data(), 0, 3);
  const auto rows = advise(data, advise_grid(), free_balancing());
  ASSERT_EQ(rows.size(), 1u + 4 * 2 * 6 * 3);
  EXPECT_EQ(rows.front().result.predicted_s, 18.0);  // the bound of the file's opening comment
  EXPECT_EQ(rows.front().gain, 24.0 / 18.0);
  for (std::size_t i = 1; i < rows.size(); ++i)
    EXPECT_LE(rows[i - 1].result.predicted_s, rows[i].result.predicted_s) << i;
  const AdviceRow& none = row_of(rows, "");
  EXPECT_EQ(none.gain, 1.0);
  EXPECT_EQ(row_of(rows, "--tessera_lb_name=GreedyLB --tessera_lb_args=mode=full --tessera_lb_interval=50 "
                         "--tessera_lb_model=persistence")
                .result.predicted_s,
            18.0);
  // When balancing costs more than the imbalance can ever save, no LB wins by construction.
  CostModel dear = free_balancing();
  dear.strategy_s = 100.0;
  EXPECT_EQ(advise(data, advise_grid(), dear).front().option.flags(), "");
}

TEST(Advisor, GridFlagsPasteOntoACommandLine) {
  EXPECT_EQ(option("TemperedLB", "iters=4 deterministic=true", "auto", "linear:5").flags(),
            "--tessera_lb_name=TemperedLB --tessera_lb_args=\"iters=4 deterministic=true\" --tessera_lb_interval=auto "
            "--tessera_lb_model=linear:5");
  const auto tempered = advise_grid("TemperedLB", "iters=8");
  ASSERT_EQ(tempered.size(), 1u + 6 * 3);
  EXPECT_EQ(tempered[1].args, "iters=8 deterministic=true");
}

std::string grid_error(const std::string& strategy, const std::string& args) {
  try {
    advise_grid(strategy, args);
  } catch (const ArgumentError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Advisor, BadInputIsNamed) {
  EXPECT_EQ(grid_error("TemperedLB", "iters=3"), "--args iters=3: outside TemperedLB's advise grid; expected iters in: 4, 8");
  EXPECT_EQ(grid_error("TemperedLB", "fanout=2"), "--args fanout=2: TemperedLB's advise grid sweeps only its key iters");
  EXPECT_EQ(grid_error("RotateLB", ""),
            "--strategy RotateLB: not in the advise grid; expected one of: GreedyLB, HierLB, GrapevineLB, TemperedLB");
  const LbData data = two_rank_data();
  auto phases_error = [&](PhaseId a, PhaseId b) {
    try {
      ReplayData(data, a, b);
    } catch (const ArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(phases_error(0, 9), "--phases 0:9: the LB data lacks phase 9; the data has phases 0..3");
  EXPECT_EQ(phases_error(3, 1), "--phases 3:1: expected A <= B; the data has phases 0..3");
}

}  // namespace
}  // namespace tessera::lb
