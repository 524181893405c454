// Split and merge on the virtual ranks (lb/reshape.hpp): exact thresholds, exact pieces and
// merged pairs with their ids, loads and footprints, edges divided and renamed, and what a
// strategy then reaches on a workload no placement of whole objects can balance.
#include <tessera/lb/registry.hpp>
#include <tessera/lb/reshape.hpp>
#include <tessera/lb/statistics.hpp>
#include <tessera/lb/strategy.hpp>
#include <tessera/lb/virtual_backend.hpp>

#include <cmath>

#include <gtest/gtest.h>

namespace {

using namespace tessera::lb;

ObjectId id(std::uint64_t v) { return ObjectId::packed(v); }
LbObject object(std::uint64_t v, double load, double footprint = 0.0) {
  LbObject o{id(v), load, true, {}};
  o.memory.footprint_bytes = footprint;
  return o;
}
std::vector<std::pair<std::uint64_t, double>> loads(const StrategyInput& r) {
  std::vector<std::pair<std::uint64_t, double>> out;
  for (const auto& o : r.objects) out.emplace_back(o.id.value, o.load);
  return out;
}

TEST(Reshape, ThresholdsAndDepths) {
  const ReshapeThresholds t = reshape_thresholds({0.5, 0.25}, 40.0, 4, 36.0, 12);
  EXPECT_DOUBLE_EQ(t.split_load, 5.0);   // 0.5 x 40 / 4
  EXPECT_DOUBLE_EQ(t.merge_load, 0.75);  // 0.25 x 36 / 12
  const ReshapeThresholds off = reshape_thresholds({}, 40.0, 4, 36.0, 12);
  EXPECT_TRUE(std::isinf(off.split_load));
  EXPECT_EQ(off.merge_load, 0.0);
  EXPECT_EQ(split_depth(5.0, 5.0), 0);
  EXPECT_EQ(split_depth(5.1, 5.0), 1);
  EXPECT_EQ(split_depth(20.0, 5.0), 2);
  EXPECT_EQ(split_depth(21.0, 5.0), 3);
  EXPECT_EQ(split_depth(1e9, 1.0), kMaxSplitDepth);
}

TEST(Reshape, ExactPiecesAndPairsOnTwoRanks) {
  // Total 36.5 over 2 ranks: split_above=0.5 splits above 9.125 (object 0 at 20 into 4 pieces of
  // 5, object 5 at 9.5 into 2 of 4.75). Migratable load 36.5 over 8 objects (the rank's own is
  // not migratable): merge_below=0.5 merges below 2.28125, by ascending id per rank.
  std::vector<StrategyInput> ranks(2);
  ranks[0].rank = 0;
  ranks[0].objects = {object(0, 20.0, 400.0), object(3, 1.0, 10.0), object(1, 0.5, 20.0), object(2, 1.5, 30.0)};
  ranks[0].objects.push_back(LbObject{id(100), 0.0, false, {}});
  ranks[0].edges = {LbEdge{id(0), id(3), 8, 800.0}, LbEdge{id(1), id(2), 3, 30.0}, LbEdge{id(2), id(5), 1, 10.0}};
  ranks[1].rank = 1;
  ranks[1].objects = {object(5, 9.5), object(6, 0.5), object(7, 0.5), object(8, 3.0)};
  const ReshapeCounts c = reshape(ranks, ReshapeOptions{0.5, 0.5});
  EXPECT_EQ(c.splits, 2);
  EXPECT_EQ(c.pieces, 6);
  EXPECT_EQ(c.merges, 2);  // (1, 2) on rank 0; (6, 7) on rank 1; object 3 is left alone
  EXPECT_EQ(c.merged, 4);
  using V = std::vector<std::pair<std::uint64_t, double>>;
  // New ids after the largest (100), in rank then object order.
  EXPECT_EQ(loads(ranks[0]), (V{{101, 5.0}, {102, 5.0}, {103, 5.0}, {104, 5.0}, {3, 1.0}, {1, 2.0}, {100, 0.0}}));
  EXPECT_EQ(loads(ranks[1]), (V{{105, 4.75}, {106, 4.75}, {6, 1.0}, {8, 3.0}}));
  EXPECT_DOUBLE_EQ(ranks[0].objects[0].memory.footprint_bytes, 100.0);
  EXPECT_DOUBLE_EQ(ranks[0].objects[5].memory.footprint_bytes, 50.0);
  // 0 -> 3 divided among 0's four pieces; 1 -> 2 now inside merged 1, dropped; 2 -> 5 is 1 -> 105, 106.
  ASSERT_EQ(ranks[0].edges.size(), 6u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(ranks[0].edges[k].from, id(101 + k));
    EXPECT_EQ(ranks[0].edges[k].to, id(3));
    EXPECT_EQ(ranks[0].edges[k].messages, 2);
    EXPECT_DOUBLE_EQ(ranks[0].edges[k].bytes, 200.0);
  }
  EXPECT_EQ(ranks[0].edges[4].from, id(1));
  EXPECT_EQ(ranks[0].edges[4].to, id(105));
  EXPECT_EQ(ranks[0].edges[5].to, id(106));
  EXPECT_EQ(ranks[0].edges[5].messages, 1);
  EXPECT_DOUBLE_EQ(ranks[0].edges[5].bytes, 5.0);
}

TEST(Reshape, OffChangesNothing) {
  std::vector<StrategyInput> ranks(1);
  ranks[0].objects = {object(0, 20.0), object(1, 0.1), object(2, 0.1)};
  const auto before = loads(ranks[0]);
  const ReshapeCounts c = reshape(ranks, ReshapeOptions{});
  EXPECT_EQ(c.splits + c.merges, 0);
  EXPECT_EQ(loads(ranks[0]), before);
}

TEST(Reshape, SplittingLetsGreedyBalanceWhatWholeObjectsCannot) {
  // One object holds half the load of 4 ranks: whole, the best placement leaves I = 1.
  std::vector<StrategyInput> ranks(4);
  for (int r = 0; r < 4; ++r) {
    ranks[r].rank = r;
    for (int k = 0; k < 8; ++k) ranks[r].objects.push_back(object(static_cast<std::uint64_t>(r * 8 + k), 1.0));
  }
  ranks[0].objects.push_back(object(99, 32.0));
  const auto imbalance_after_greedy = [](std::vector<StrategyInput> in) {
    auto strategy = Registry::builtin().create("GreedyLB", "");
    comm::VirtualBackend backend(static_cast<Rank>(in.size()));
    const Plan plan = strategy->run(backend, in);
    return statistics(rank_loads(apply_plan(in, plan))).imbalance();
  };
  EXPECT_NEAR(imbalance_after_greedy(ranks), 1.0, 1e-12);
  const ReshapeCounts c = reshape(ranks, ReshapeOptions{0.25, 0.0});  // split above 4
  EXPECT_EQ(c.splits, 1);
  EXPECT_EQ(c.pieces, 8);  // 32 -> 8 pieces of 4
  EXPECT_NEAR(imbalance_after_greedy(ranks), 0.0, 1e-12);
}

}  // namespace
