// Node awareness in the lb core: HierLB's tree with a node map (each node's ranks under one parent
// before the nodes meet), exact plans on the virtual backend; and metadata.shared_node in LB data,
// written and read back, and refused with a message naming file and field when malformed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tessera/lb/hier_lb.hpp"
#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/virtual_backend.hpp"
#include "../support/lb_inputs.hpp"

namespace tessera::lb {
namespace {

using testing::move;

using testing::make_ranks;

Plan run(Strategy& strategy, const std::vector<StrategyInput>& ranks, NodeMap nodes = {}) {
  comm::VirtualBackend backend(static_cast<Rank>(ranks.size()), comm::VirtualBackend::CpuTiming::off,
                               std::move(nodes));
  return strategy.run(backend, ranks);
}

const NodeMap two_by_three{{0, 0, 0, 1, 1, 1}};

TEST(HierLBNodes, SurplusIsServedInsideTheNodeFirst) {
  // Average 3 (C = D = 1.003). Rank 4 holds 3 + 1 + 1 + 1 and sheds objects 6, 7, 8; rank 5, on the
  // same node, is empty. With the node map the trees are 0 -> {1, 2} and 3 -> {4, 5}, with node
  // leaders 0 -> {3}: rank 3 serves its empty child 5 with all three before anything leaves node 1.
  const auto ranks = make_ranks({{3}, {3}, {3}, {3}, {3, 1, 1, 1}, {}});
  HierLB hier(HierLB::Options{1.003, 1.003, 2, {}});
  const Plan by_node = run(hier, ranks, two_by_three);
  EXPECT_EQ(by_node.migrations, (std::vector<Migration>{move(6, 4, 5), move(7, 4, 5), move(8, 4, 5)}));
  EXPECT_EQ(rank_loads(apply_plan(ranks, by_node)), (std::vector<double>{3, 3, 3, 3, 3, 3}));
  // Without nodes, seed 000's tree 0 -> {1, 2}, 1 -> {3, 4}, 2 -> {5}: rank 1 meets rank 4's
  // objects first and deals them to itself and to rank 3 (both at the average, under D x average),
  // and object 8 back to rank 4; rank 5 stays empty.
  EXPECT_EQ(run(hier, ranks).migrations, (std::vector<Migration>{move(6, 4, 1), move(7, 4, 3)}));
}

TEST(HierLBNodes, WhatTheNodeCannotTakeCrossesToTheOtherNode) {
  // Average 3. Rank 4 holds object 3 (load 3) and six objects of 1 (ids 4..9) and sheds the six.
  // Node 1's tree (3 -> {4, 5}, every rank at 3) deals 4 to rank 3, 5 back to rank 4 and 6 to rank
  // 5, which puts all three at 4, above D x average: 7, 8, 9 go up to the node tree. Node 0 (ranks
  // 0, 1, 2 at 0, 0, 3: average 1) takes them: 7 to rank 0, 8 to rank 1, 9 to rank 0 (least load,
  // then lowest rank).
  const auto ranks = make_ranks({{}, {}, {3}, {3}, {3, 1, 1, 1, 1, 1, 1}, {3}});
  HierLB hier(HierLB::Options{1.003, 1.003, 2, {}});
  const Plan plan = run(hier, ranks, two_by_three);
  EXPECT_EQ(plan.migrations, (std::vector<Migration>{move(4, 4, 3), move(6, 4, 5), move(7, 4, 0), move(8, 4, 1),
                                                     move(9, 4, 0)}));
  EXPECT_EQ(rank_loads(apply_plan(ranks, plan)), (std::vector<double>{2, 1, 3, 4, 4, 4}));
}

TEST(HierLBNodes, OneNodeOrANodePerRankIsSeed000sTree) {
  // The case of strategies_test's SmallTreeServesTheUnderloadedChildOnTheWayUp, unchanged by a map
  // that groups nothing or groups everything.
  const auto ranks = make_ranks({{2}, {2}, {2}, {2, 1, 1}, {}});
  HierLB hier(HierLB::Options{1.003, 1.003, 2, {}});
  const std::vector<Migration> expected{move(5, 3, 4), move(6, 3, 4)};
  EXPECT_EQ(run(hier, ranks).migrations, expected);
  EXPECT_EQ(run(hier, ranks, NodeMap{{0, 0, 0, 0, 0}}).migrations, expected);
  EXPECT_EQ(run(hier, ranks, NodeMap{{0, 1, 2, 3, 4}}).migrations, expected);
}

TEST(HierLBNodes, InterleavedNodesPlaceEveryObjectOnce) {
  // Round-robin placement (rank r on node r mod 3) on 30 ranks, every third rank overloaded: every
  // object ends on exactly one rank and the load is conserved.
  std::vector<std::vector<double>> loads(30);
  for (std::size_t r = 0; r < loads.size(); ++r) loads[r].assign(r % 3 == 1 ? 12 : 3, 0.5 + 0.01 * static_cast<double>(r));
  const auto ranks = make_ranks(loads);
  NodeMap interleaved;
  for (Rank r = 0; r < 30; ++r) interleaved.node.push_back(r % 3);
  HierLB hier;
  const Plan plan = run(hier, ranks, interleaved);
  const auto after = apply_plan(ranks, plan);
  std::size_t objects = 0;
  double before_sum = 0.0, after_sum = 0.0;
  for (const auto& r : ranks) before_sum += r.load();
  for (const auto& r : after) {
    objects += r.objects.size();
    after_sum += r.load();
  }
  EXPECT_EQ(objects, 10u * 12u + 20u * 3u);
  EXPECT_NEAR(after_sum, before_sum, 1e-9);
  EXPECT_FALSE(plan.migrations.empty());
}

TEST(VirtualBackendNodes, RefusesAMapOfAnotherSize) {
  try {
    comm::VirtualBackend backend(4, comm::VirtualBackend::CpuTiming::off, NodeMap{{0, 0, 1}});
    FAIL() << "a map of 3 ranks was accepted for 4";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "node map of 3 ranks for a backend of 4 ranks");
  }
}

// --- metadata.shared_node --------------------------------------------------------------------------

std::filesystem::path scratch(const char* what) {
  const auto dir = std::filesystem::temp_directory_path() / (std::string("tessera_lb_nodes_") + what + "_" +
                                                            std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(SharedNode, WriteThenReadKeepsItAndGivesTheNodeMap) {
  LbData data;
  const NodeMap map{{0, 1, 0, 1}};  // round robin over two nodes
  const auto described = map.shared_nodes();
  ASSERT_EQ(described.size(), 4u);
  EXPECT_EQ(described[2], (SharedNode{0, 2, 1, 2}));  // node 0, 2 ranks, second of them, 2 nodes
  EXPECT_EQ(described[3], (SharedNode{1, 2, 1, 2}));
  for (Rank r = 0; r < 4; ++r) {
    RankData rank;
    rank.rank = r;
    rank.shared_node = described[static_cast<std::size_t>(r)];
    rank.metadata_extra = R"({"rank_alpha":1.5})";
    rank.phases.push_back(Phase{0, {}, {}});
    data.ranks.push_back(rank);
  }
  const auto dir = scratch("roundtrip");
  write_lb_data(data, dir / "nodes");
  const std::string text = to_lb_json(data.ranks[3]);
  EXPECT_NE(text.find(R"("shared_node":{"id":1,"num_nodes":2,"rank":1,"size":2})"), std::string::npos) << text;
  const LbData back = read_lb_data(dir / "nodes");
  EXPECT_EQ(back, data);
  EXPECT_EQ(back.node_map(), map);
  EXPECT_EQ(back.ranks[1].metadata_extra, R"({"rank_alpha":1.5})");  // shared_node is not kept twice
  std::filesystem::remove_all(dir);
}

TEST(SharedNode, AbsentMeansANodePerRank) {
  LbData data;
  data.ranks.resize(2);
  data.ranks[1].rank = 1;
  EXPECT_TRUE(data.node_map().node.empty());
  EXPECT_FALSE(data.node_map().grouped());
  EXPECT_FALSE((NodeMap{{0, 1, 2}}).grouped());
  EXPECT_TRUE((NodeMap{{0, 1, 0}}).grouped());
}

std::string error_of(const std::filesystem::path& stem) {
  try {
    (void)read_lb_data(stem);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SharedNode, MalformedIsRefusedNamingFileAndField) {
  const auto dir = scratch("bad");
  const auto put = [&](const std::string& name, const std::string& shared_node) {
    std::ofstream(dir / name) << R"({"type":"LBDatafile","metadata":{"type":"LBDatafile","shared_node":)" + shared_node +
                                     R"(},"phases":[]})";
  };
  put("a.0.json", R"({"id":0,"rank":0,"num_nodes":1})");
  EXPECT_EQ(error_of(dir / "a"), (dir / "a.0.json").string() + ": metadata.shared_node: missing field 'size'");
  put("b.0.json", R"({"id":2,"size":1,"rank":0,"num_nodes":2})");
  EXPECT_EQ(error_of(dir / "b"),
            (dir / "b.0.json").string() + ": metadata.shared_node.id: expected a node id in [0, num_nodes) = [0, 2), got 2");
  put("c.0.json", R"({"id":0,"size":"two","rank":0,"num_nodes":1})");
  EXPECT_EQ(error_of(dir / "c"), (dir / "c.0.json").string() + ": metadata.shared_node.size: expected an integer");
  put("d.0.json", "[0, 1]");
  EXPECT_EQ(error_of(dir / "d"), (dir / "d.0.json").string() +
                                     ": metadata.shared_node: expected an object with integer fields id, size, rank, "
                                     "num_nodes");
  // Across files: a size that disagrees with the ranks naming the node, and a rank without one.
  put("e.0.json", R"({"id":0,"size":1,"rank":0,"num_nodes":1})");
  put("e.1.json", R"({"id":0,"size":1,"rank":0,"num_nodes":1})");
  EXPECT_EQ(error_of(dir / "e"),
            (dir / "e.0.json").string() + ": metadata.shared_node.size: 1, but 2 rank files name node 0");
  put("f.0.json", R"({"id":0,"size":1,"rank":0,"num_nodes":1})");
  std::ofstream(dir / "f.1.json") << R"({"phases":[]})";
  EXPECT_EQ(error_of(dir / "f"), (dir / "f.1.json").string() + ": metadata.shared_node: missing, but " +
                                     (dir / "f.0.json").string() +
                                     " has one (all ranks or none must say which node they ran on)");
  put("g.0.json", R"({"id":0,"size":1,"rank":0,"num_nodes":2})");
  EXPECT_EQ(error_of(dir / "g"),
            (dir / "g.0.json").string() + ": metadata.shared_node.num_nodes: 2 nodes, but no rank is on node 1");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessera::lb
