// The work model with a node map: beta charges the bytes between nodes, gamma the bytes between
// ranks of one node, exact per rank (RankWork, rank_work) and as TemperedLB sees them after its
// edge exchange, which with a node map also tells each holder where its objects' peers are.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tessera/lb/registry.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lb/virtual_backend.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb {
namespace {

ObjectId id(std::uint64_t v) { return ObjectId::packed(v); }

// Objects 1..4 on ranks 0..3 (loads 1..4), ranks 0, 1 on node 0 and 2, 3 on node 1. Edges:
// 1 -> 2 100 B and 2 -> 1 7 B (within node 0), 1 -> 3 10 B and 4 -> 1 30 B (between the nodes).
std::vector<StrategyInput> four_ranks() {
  std::vector<StrategyInput> ranks(4);
  for (Rank r = 0; r < 4; ++r) {
    ranks[static_cast<std::size_t>(r)].rank = r;
    ranks[static_cast<std::size_t>(r)].objects.push_back(LbObject{id(static_cast<std::uint64_t>(r) + 1), r + 1.0, true, {}});
  }
  ranks[0].edges = {LbEdge{id(1), id(2), 1, 100}, LbEdge{id(2), id(1), 1, 7}, LbEdge{id(1), id(3), 1, 10},
                    LbEdge{id(4), id(1), 1, 30}};
  return ranks;
}

const NodeMap two_nodes{{0, 0, 1, 1}};
const WorkModel model{1.0, 0.5, 0.25, 0.0, 0.0};  // alpha, beta, gamma, delta, memory_limit

TEST(NodeWork, BetaChargesInterNodeBytesGammaIntraNodeBytes) {
  // Rank 0: inter sent 10, received 30 -> 0.5 x 30; intra sent 100, received 7 -> 0.25 x 100.
  // Rank 1: intra received 100, sent 7 -> 0.25 x 100. Rank 2: inter received 10. Rank 3: inter sent 30.
  EXPECT_EQ(model.rank_work(four_ranks(), {}, two_nodes), (std::vector<double>{1 + 15 + 25, 2 + 25, 3 + 5, 4 + 15}));
  // Without a map every off-rank byte is inter-node: rank 0 sends 110, receives 37; rank 1 sends 7,
  // receives 100; gamma adds nothing. A map of a node per rank says the same.
  const std::vector<double> no_nodes{1 + 55, 2 + 50, 3 + 5, 4 + 15};
  EXPECT_EQ(model.rank_work(four_ranks()), no_nodes);
  EXPECT_EQ(model.rank_work(four_ranks(), {}, NodeMap{{0, 1, 2, 3}}), no_nodes);
  // All on one node: every byte is intra-node. Rank 0: 0.25 x max(110, 37).
  EXPECT_EQ(model.rank_work(four_ranks(), {}, NodeMap{{0, 0, 0, 0}}),
            (std::vector<double>{1 + 27.5, 2 + 25, 3 + 2.5, 4 + 7.5}));
}

TEST(NodeWork, RankWorkFollowsObjectsAcrossRanksOfTheNode) {
  const auto ranks = four_ranks();
  const auto edges = object_edges(ranks, two_nodes);
  const auto& of1 = edges.at(id(1));
  const auto& of2 = edges.at(id(2));
  const LbObject& o1 = ranks[0].objects[0];
  const LbObject& o2 = ranks[1].objects[0];
  RankWork rank0(model, 0, 1.0, 0.0, 0);
  rank0.add(o1, of1, 0);
  EXPECT_DOUBLE_EQ(rank0.work(), 41.0);
  // Object 2 joins object 1: their 100 + 7 bytes become free, the inter-node 10 / 30 stay.
  EXPECT_DOUBLE_EQ(rank0.work_with(o2, of2, 1), 3.0 + 15.0);
  rank0.add(o2, of2, 1);
  EXPECT_DOUBLE_EQ(rank0.work(), 18.0);
  // Object 1 leaves again: object 2 sends it 7 and receives 100 within the node.
  EXPECT_DOUBLE_EQ(rank0.work_without(o1, of1, 0), 2.0 + 25.0);
  rank0.remove(o1, of1, 0);
  EXPECT_DOUBLE_EQ(rank0.work(), 27.0);
  // A half-edge says where each end was: object 1 (rank 0, node 0) to object 3 (rank 2, node 1).
  const auto to3 = std::find_if(of1.begin(), of1.end(), [](const HalfEdge& e) { return e.peer == id(3); });
  ASSERT_NE(to3, of1.end());
  EXPECT_EQ(to3->peer_node, 1);
  EXPECT_EQ(to3->own_node, 0);
}

TemperedLB create(std::string_view args) {
  auto strategy = Registry::builtin().create("TemperedLB", args);
  return *dynamic_cast<TemperedLB*>(strategy.get());
}

Plan run(Strategy& strategy, const std::vector<StrategyInput>& ranks, NodeMap nodes = {}) {
  comm::VirtualBackend backend(static_cast<Rank>(ranks.size()), comm::VirtualBackend::CpuTiming::off,
                               std::move(nodes));
  return strategy.run(backend, ranks);
}

TEST(NodeWork, TemperedLBSplitsTheTalkingPairWithinANodeOnly) {
  // work_model_test's talking pair: rank 0 holds A = 3 and B = 3 (A -> B 1000 bytes) and F = 1;
  // ranks 1, 2, 3 hold 0.5, 4.5, 4. beta = 0.003, gamma = 0. Without nodes, splitting the pair
  // costs 3 s on both ends and rank 0 gives F instead. With ranks 0 and 1 on one node the pair's
  // bytes stay within it and cost nothing: rank 0 gives A, as when balancing load.
  auto ranks = std::vector<StrategyInput>(4);
  const double loads[4][3] = {{3, 3, 1}, {0.5, 0, 0}, {4.5, 0, 0}, {4, 0, 0}};
  std::uint64_t next = 1;
  for (Rank r = 0; r < 4; ++r) {
    ranks[static_cast<std::size_t>(r)].rank = r;
    for (int k = 0; k < (r == 0 ? 3 : 1); ++k)
      ranks[static_cast<std::size_t>(r)].objects.push_back(LbObject{id(next++), loads[r][k], true, {}});
  }
  ranks[0].edges.push_back(LbEdge{id(1), id(2), 10, 1000});
  const std::string keys = "ordering=element_id iters=1 trials=1 knowledge=complete deterministic=true beta=0.003";
  auto apart = create(keys);
  EXPECT_EQ(run(apart, ranks).migrations, (std::vector<Migration>{Migration{id(3), 0, 1}}));
  auto together = create(keys);
  EXPECT_EQ(run(together, ranks, two_nodes).migrations, (std::vector<Migration>{Migration{id(1), 0, 1}}));
  EXPECT_DOUBLE_EQ(together.report().initial_imbalance, 7.0 / 4.0 - 1.0);
  EXPECT_DOUBLE_EQ(together.report().best_imbalance, 4.5 / 4.0 - 1.0);  // works 4, 3.5, 4.5, 4
}

TEST(NodeWork, TemperedLBModelsTheSameWorkAsRankWork) {
  // 12 ranks on 3 nodes of 4, 5 objects each, random edges: TemperedLB's initial I (from the
  // edges and peer locations its messages gathered) is rank_work's, which differs without nodes.
  std::mt19937_64 gen(26);
  std::uniform_real_distribution<double> load(0.5, 2.0);
  std::uniform_int_distribution<std::uint64_t> object(1, 60);
  std::uniform_real_distribution<double> bytes(1e3, 1e5);
  std::vector<StrategyInput> ranks(12);
  for (Rank r = 0; r < 12; ++r) {
    auto& rank = ranks[static_cast<std::size_t>(r)];
    rank.rank = r;
    for (int k = 1; k <= 5; ++k) rank.objects.push_back(LbObject{id(static_cast<std::uint64_t>(5 * r + k)), load(gen), true, {}});
    for (int k = 0; k < 8; ++k) {
      const auto from = id(static_cast<std::uint64_t>(5 * r + 1 + k % 5));
      rank.edges.push_back(LbEdge{from, id(object(gen)), 1, bytes(gen)});
    }
  }
  const NodeMap nodes = NodeMap::blocks(12, 4);
  const WorkModel work{1.0, 2e-5, 5e-6, 0.0, 0.0};
  const auto imbalance = [](const std::vector<double>& w) {
    double sum = 0.0;
    for (double v : w) sum += v;
    return *std::max_element(w.begin(), w.end()) / (sum / static_cast<double>(w.size())) - 1.0;
  };
  const double with_nodes = imbalance(work.rank_work(ranks, {}, nodes));
  const double without = imbalance(work.rank_work(ranks));
  EXPECT_GT(std::abs(with_nodes - without), 1e-3);
  auto tempered = create("iters=2 trials=1 deterministic=true beta=2e-5 gamma=5e-6");
  (void)run(tempered, ranks, nodes);
  EXPECT_NEAR(tempered.report().initial_imbalance, with_nodes, 1e-12);
  (void)run(tempered, ranks);
  EXPECT_NEAR(tempered.report().initial_imbalance, without, 1e-12);
}

}  // namespace
}  // namespace tessera::lb
