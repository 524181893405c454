// lbsim's engine: synthetic workloads, the affine work model, phase inputs, simulation results and
// the placement written back as LBDatafile JSON (read back with the lb core's reader).

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lbsim/simulation.hpp"
#include "tessera/lbsim/synthetic.hpp"
#include "tessera/lbsim/work_model.hpp"

namespace tessera::lbsim {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

// Two ranks, one object each, over three phases: object 1 (rank 0) loads 1, 2, 3; object 2
// (rank 1) loads 6, 2, 1.
lb::LbData growing_data() {
  lb::LbData data;
  const double loads[2][3] = {{1.0, 2.0, 3.0}, {6.0, 2.0, 1.0}};
  for (int r = 0; r < 2; ++r) {
    lb::RankData rank;
    rank.rank = r;
    for (int p = 0; p < 3; ++p) {
      lb::Task task;
      task.entity.id = lb::ObjectId::packed(static_cast<std::uint64_t>(r + 1));
      task.entity.migratable = true;
      task.node = r;
      task.time = loads[r][p];
      rank.phases.push_back(lb::Phase{p, {task}, {}});
    }
    data.ranks.push_back(rank);
  }
  return data;
}

TEST(PredictedInputs, TheModelPredictsFromThePhasesUpToTheOneBalanced) {
  const lb::LbData data = growing_data();
  auto loads = [&](lb::PhaseId phase, std::string_view model) {
    const auto inputs = predicted_inputs(data, phase, lb::parse_load_model(model));
    return std::vector<double>{inputs[0].objects.at(0).load, inputs[1].objects.at(0).load};
  };
  EXPECT_EQ(loads(2, "persistence"), (std::vector<double>{3.0, 1.0}));
  EXPECT_EQ(loads(2, "median:3"), (std::vector<double>{2.0, 2.0}));
  EXPECT_EQ(loads(1, "median:3"), (std::vector<double>{1.5, 4.0}));   // phases 0 and 1 only
  EXPECT_EQ(loads(2, "linear:3"), (std::vector<double>{4.0, 0.0}));   // 6, 2, 1 extrapolates to -1: 0
  EXPECT_EQ(loads(1, "linear:2"), (std::vector<double>{3.0, 0.0}));
}

TEST(Synthetic, DefaultsAreSeed003SectionFive) {
  const SyntheticSpec spec = parse_synthetic("");
  EXPECT_EQ(spec.objects, 10000);
  EXPECT_EQ(spec.ranks, 4096);
  EXPECT_EQ(spec.mapped, 16);
  EXPECT_EQ(spec.a, 1e-5);
  EXPECT_EQ(spec.b, 1e-1);
}

TEST(Synthetic, BadSpecsAreNamed) {
  EXPECT_EQ(error_of([] { parse_synthetic("mapped=0"); }), "--synthetic: mapped=0: expected an integer in [1, ranks]");
  EXPECT_EQ(error_of([] { parse_synthetic("ranks=8 mapped=9"); }),
            "--synthetic: mapped=9: expected an integer in [1, ranks] (ranks=8)");
  EXPECT_EQ(error_of([] { parse_synthetic("objects"); }), "--synthetic: malformed argument 'objects': expected key=value");
  EXPECT_EQ(error_of([] { parse_synthetic("colour=red"); }),
            "--synthetic: unknown key 'colour'; valid keys: objects, ranks, mapped, load, hot, seed");
  EXPECT_EQ(error_of([] { parse_synthetic("ranks=8 mapped=4 hot=5:2"); }),
            "--synthetic: hot=5:2: expected H:FACTOR with H in [0, mapped] (mapped=4)");
  EXPECT_EQ(error_of([] { parse_synthetic("hot=2:0"); }),
            "--synthetic: hot=2:0: expected H:FACTOR (H an integer in [0, mapped], FACTOR > 0)");
  EXPECT_EQ(error_of([] { parse_synthetic("load=uniform:2:1"); }),
            "--synthetic: load=uniform:2:1: expected uniform:LOW:HIGH (0 <= LOW <= HIGH) or "
            "lognormal:MEAN:VARIANCE (MEAN > 0, VARIANCE >= 0)");
  EXPECT_EQ(error_of([] { parse_synthetic("seed=1 seed=2"); }), "--synthetic: key 'seed' given twice");
}

TEST(Synthetic, PlacesEveryObjectOnTheMappedRanks) {
  const auto spec = parse_synthetic("objects=500 ranks=64 mapped=3 load=uniform:0.5:1.5 seed=4");
  const lb::LbData data = make_synthetic(spec);
  ASSERT_EQ(data.ranks.size(), 64u);
  std::size_t count = 0;
  for (const auto& rank : data.ranks) {
    ASSERT_EQ(rank.phases.size(), 1u);
    for (const auto& task : rank.phases[0].tasks) {
      EXPECT_LT(rank.rank, 3);
      EXPECT_EQ(task.node, rank.rank);
      EXPECT_GE(task.time, 0.5);
      EXPECT_LT(task.time, 1.5);
    }
    count += rank.phases[0].tasks.size();
  }
  EXPECT_EQ(count, 500u);
  EXPECT_EQ(make_synthetic(spec), data);
}

TEST(Synthetic, AHotSpotMultipliesTheLoadsOfItsRanks) {
  // The same draws with and without the hot spot: the objects on ranks 0 and 1 weigh 8x.
  const lb::LbData plain = make_synthetic(parse_synthetic("objects=400 ranks=16 mapped=16 seed=2"));
  const lb::LbData hot = make_synthetic(parse_synthetic("objects=400 ranks=16 mapped=16 seed=2 hot=2:8"));
  for (std::size_t r = 0; r < 16; ++r) {
    const auto& a = plain.ranks[r].phases[0].tasks;
    const auto& b = hot.ranks[r].phases[0].tasks;
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(b[i].time, a[i].time * (r < 2 ? 8.0 : 1.0));
  }
}

TEST(Synthetic, TilingRepeatsTheRecordedRanksWithDistinctIds) {
  const auto inputs = phase_inputs(make_synthetic(parse_synthetic("objects=30 ranks=3 mapped=3 seed=5")), 0);
  const auto tiled = tile_inputs(inputs, 12);
  ASSERT_EQ(tiled.size(), 12u);
  std::set<std::uint64_t> ids;
  for (std::size_t r = 0; r < tiled.size(); ++r) {
    EXPECT_EQ(tiled[r].rank, static_cast<lb::Rank>(r));
    ASSERT_EQ(tiled[r].objects.size(), inputs[r % 3].objects.size());
    for (std::size_t i = 0; i < tiled[r].objects.size(); ++i) {
      EXPECT_EQ(tiled[r].objects[i].load, inputs[r % 3].objects[i].load);
      ids.insert(tiled[r].objects[i].id.value);
    }
  }
  EXPECT_EQ(ids.size(), 4u * 30u);
  EXPECT_EQ(error_of([&] { tile_inputs(inputs, 10); }), "tiling 3 recorded ranks over 10 ranks: expected a positive multiple of 3");
}

TEST(Synthetic, LognormalHasTheRequestedMoments) {
  const lb::LbData data = make_synthetic(parse_synthetic("objects=40000 ranks=1 mapped=1 load=lognormal:2:1 seed=2"));
  double sum = 0.0, squares = 0.0;
  for (const auto& task : data.ranks[0].phases[0].tasks) {
    sum += task.time;
    squares += task.time * task.time;
  }
  const double mean = sum / 40000.0;
  EXPECT_NEAR(mean, 2.0, 0.03);
  EXPECT_NEAR(squares / 40000.0 - mean * mean, 1.0, 0.06);
}

lb::StrategyInput rank_of(lb::Rank r, std::vector<std::pair<std::uint64_t, double>> objects,
                          std::vector<std::tuple<std::uint64_t, std::uint64_t, double>> edges = {}) {
  lb::StrategyInput input;
  input.rank = r;
  for (auto [id, load] : objects) input.objects.push_back(lb::LbObject{lb::ObjectId::packed(id), load, true, {}});
  for (auto [from, to, bytes] : edges) {
    input.edges.push_back(lb::LbEdge{lb::ObjectId::packed(from), lb::ObjectId::packed(to), 1, bytes});
  }
  return input;
}

TEST(WorkModel, AffineCombinationOfLoadAndOffRankBytes) {
  // Objects 1, 2 on rank 0, 3 on rank 1, 4 on rank 2. Edges 1->3 (100 B, recorded twice),
  // 3->2 (40 B), 4->1 (30 B), 1->2 (same rank: ignored), 5->1 (5 is no object: ignored).
  const std::vector<lb::StrategyInput> ranks = {
      rank_of(0, {{1, 1.0}, {2, 2.0}}, {{1, 3, 100}, {1, 2, 7}, {5, 1, 9}}),
      rank_of(1, {{3, 3.0}}, {{1, 3, 100}, {3, 2, 40}}),
      rank_of(2, {{4, 0.5}}, {{4, 1, 30}}),
  };
  // gamma charges intra-node bytes: without a node map there are none, so it adds nothing.
  const WorkModel model = parse_work("alpha=1 beta=0.01 gamma=0.5");
  const auto work = model.rank_work(ranks);
  ASSERT_EQ(work.size(), 3u);
  EXPECT_DOUBLE_EQ(work[0], 3.0 + 0.01 * 100);  // sends 100, receives 70
  EXPECT_DOUBLE_EQ(work[1], 3.0 + 0.01 * 100);  // sends 40, receives 100
  EXPECT_DOUBLE_EQ(work[2], 0.5 + 0.01 * 30);   // sends 30
  // Ranks 0 and 1 on one node: their bytes to each other (100 and 40) cost gamma instead of beta.
  const auto by_node = model.rank_work(ranks, {}, lb::NodeMap{{0, 0, 1}});
  EXPECT_DOUBLE_EQ(by_node[0], 3.0 + 0.01 * 30 + 0.5 * 100);  // inter: receives 30; intra: sends 100, receives 40
  EXPECT_DOUBLE_EQ(by_node[1], 3.0 + 0.5 * 100);              // intra: sends 40, receives 100
  EXPECT_DOUBLE_EQ(by_node[2], 0.5 + 0.01 * 30);
  EXPECT_EQ(parse_work("").rank_work(ranks), (std::vector<double>{3.0, 3.0, 0.5}));
  EXPECT_EQ(error_of([] { parse_work("epsilon=1"); }),
            "--work: unknown key 'epsilon'; valid keys: alpha, beta, gamma, delta, memory_limit");
  EXPECT_EQ(error_of([] { parse_work("beta=x"); }), "--work: beta=x: expected a number >= 0");
}

TEST(Simulation, PhaseInputsFoldRanksForWhatIfRuns) {
  const lb::LbData data = make_synthetic(parse_synthetic("objects=40 ranks=4 mapped=4 seed=1"));
  const auto four = phase_inputs(data, 0);
  const auto two = phase_inputs(data, 0, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].objects.size(), four[0].objects.size() + four[2].objects.size());
  EXPECT_EQ(phase_inputs(data, 0, 6).size(), 6u);
  EXPECT_EQ(error_of([&] { phase_inputs(data, 3); }), "--phase 3: the data has no such phase; phases: 0");
}

TEST(Simulation, ReportsLowerBoundMigrationsAndIterations) {
  const std::vector<lb::StrategyInput> ranks = {rank_of(0, {{1, 4}, {2, 3}, {3, 2}, {4, 1}}), rank_of(1, {})};
  EXPECT_DOUBLE_EQ(lower_bound_imbalance(ranks), 0.0);  // max(avg 5, largest 4) = avg
  EXPECT_DOUBLE_EQ(lower_bound_imbalance({rank_of(0, {{1, 6}, {2, 1}}), rank_of(1, {{3, 1}})}), 0.5);
  // In work: alpha 2 over loads {6, 1 | 1} (avg 4, largest 6): max work >= 12, average work 8,
  // I >= 12/8 - 1. With beta or gamma > 0 the average moves with the placement: no I bound.
  const std::vector<lb::StrategyInput> uneven = {rank_of(0, {{1, 6}, {2, 1}}), rank_of(1, {{3, 1}})};
  const WorkBound affine = work_lower_bound(uneven, parse_work("alpha=2"));
  EXPECT_DOUBLE_EQ(affine.max_work, 12.0);
  ASSERT_TRUE(affine.imbalance.has_value());
  EXPECT_DOUBLE_EQ(*affine.imbalance, 12.0 / 8.0 - 1.0);
  EXPECT_FALSE(work_lower_bound(uneven, parse_work("alpha=2 gamma=1")).imbalance.has_value());
  const WorkBound with_bytes = work_lower_bound(uneven, parse_work("beta=0.5"));
  EXPECT_DOUBLE_EQ(with_bytes.max_work, 6.0);
  EXPECT_FALSE(with_bytes.imbalance.has_value());
  auto strategy = lb::Registry::builtin().create("TemperedLB", "ordering=element_id iters=1 trials=1");
  const SimResult result = simulate(strategy.get(), ranks, WorkModel{});
  EXPECT_EQ(result.before.imbalance(), 1.0);
  EXPECT_EQ(result.after.imbalance(), 0.0);
  EXPECT_EQ(result.migrations, 2);
  ASSERT_TRUE(result.iterations.has_value());
  EXPECT_EQ(result.iterations->iterations.size(), 1u);
  const SimResult none = simulate(nullptr, ranks, WorkModel{});
  EXPECT_EQ(none.migrations, 0);
  EXPECT_EQ(none.after.imbalance(), 1.0);
  EXPECT_FALSE(none.iterations.has_value());
}

TEST(Simulation, BalancedPlacementRoundTripsThroughLbDatafile) {
  const lb::LbData data = make_synthetic(parse_synthetic("objects=400 ranks=32 mapped=2 seed=6"));
  const auto inputs = phase_inputs(data, 0);
  auto strategy = lb::Registry::builtin().create("TemperedLB", "iters=2 deterministic=true");
  const SimResult result = simulate(strategy.get(), inputs, WorkModel{});
  ASSERT_GT(result.migrations, 0);
  const auto dir = std::filesystem::temp_directory_path() / ("tessera_lbsim_out_" + std::to_string(::getpid()));
  lb::write_lb_data(placement_data(data, 0, result.balanced), dir / "placed");
  const lb::LbData back = lb::read_lb_data(dir / "placed");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(back.ranks.size(), 32u);
  const auto reread = phase_inputs(back, 0);
  for (std::size_t r = 0; r < reread.size(); ++r) {
    std::set<lb::ObjectId> expected, got;
    for (const auto& o : result.balanced[r].objects) expected.insert(o.id);
    for (const auto& o : reread[r].objects) got.insert(o.id);
    EXPECT_EQ(got, expected) << "rank " << r;
    for (const auto& task : back.ranks[r].phases[0].tasks) EXPECT_EQ(task.node, static_cast<lb::Rank>(r));
  }
  EXPECT_DOUBLE_EQ(lb::Statistics::of(lb::rank_loads(reread)).imbalance(), result.after.imbalance());
}

TEST(Simulation, RealRecordingBalancesAndEveryPhaseHasStatistics) {
  const lb::LbData data = lb::read_lb_data(std::string(TESSERA_LBAF_DATA_DIR) + "/data/challenging_toy_fewer_tasks/toy");
  const auto phases = phase_statistics(data, WorkModel{});
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases[0].work.count, 16);
  EXPECT_NEAR(phases[0].work.imbalance(), 1.91698, 1e-5);  // as summarised in SOURCE.md
  auto strategy = lb::Registry::builtin().create("TemperedLB", "iters=4 deterministic=true");
  const SimResult result = simulate(strategy.get(), phase_inputs(data, phases[0].phase), WorkModel{});
  EXPECT_LT(result.after.imbalance(), result.before.imbalance());
  ASSERT_TRUE(result.lower_bound.has_value());
  EXPECT_GE(result.after.imbalance(), *result.lower_bound);
}

TEST(Simulation, StatisticsOfEveryPhaseOfABrotliRecording) {
  const lb::LbData data =
      lb::read_lb_data(std::string(TESSERA_LBAF_DATA_DIR) + "/data/nolb-8color-16nodes-11firstphases/data");
  const auto phases = phase_statistics(data, WorkModel{});
  ASSERT_EQ(phases.size(), 11u);
  EXPECT_EQ(phases[1].phase, 1);
  EXPECT_EQ(phases[1].work.count, 32);
  EXPECT_NEAR(phases[0].work.imbalance(), 0.992946, 1e-6);  // as summarised in SOURCE.md
  EXPECT_NEAR(phases[1].work.imbalance(), 4.94672, 1e-5);
}

}  // namespace
}  // namespace tessera::lbsim
