// The node map: dense node ids numbered by lowest rank, and the live map of this job's ranks.
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include <vector>

#include "../../support/test_runtime.hpp"

namespace {

TEST(NodeMap, TwoNodesOfThreeRanks) {
  const tessera::NodeMap map({0, 0, 0, 1, 1, 1});
  EXPECT_EQ(map.size(), 6);
  EXPECT_EQ(map.num_nodes(), 2);
  EXPECT_EQ(map.node_of(2), 0);
  EXPECT_EQ(map.node_of(3), 1);
  EXPECT_EQ(map.node_size(1), 3);
  EXPECT_EQ(map.rank_in_node(0), 0);
  EXPECT_EQ(map.rank_in_node(4), 1);
  EXPECT_EQ(map.rank_in_node(5), 2);
}

TEST(NodeMap, InterleavedRanks) {
  // Round-robin placement (mpirun --map-by node): ranks 0, 2, 4 on one host, 1, 3 on the other.
  const tessera::NodeMap map({0, 1, 0, 1, 0});
  EXPECT_EQ(map.num_nodes(), 2);
  EXPECT_EQ(map.node_size(0), 3);
  EXPECT_EQ(map.node_size(1), 2);
  EXPECT_EQ(map.rank_in_node(4), 2);
  EXPECT_EQ(map.rank_in_node(3), 1);
}

TEST(NodeMap, RejectsIdsNotNumberedByLowestRank) {
  try {
    tessera::NodeMap({0, 2, 1});
    FAIL() << "node 2 before node 1 was accepted";
  } catch (const tessera::Error& e) {
    EXPECT_STREQ(e.what(),
                 "node map: rank 1 is on node 2, but the nodes seen before it are 0..0, so it must be on one of "
                 "them or on node 1");
  }
  EXPECT_THROW(tessera::NodeMap({1, 0}), tessera::Error);
  EXPECT_THROW(tessera::NodeMap({0, -1}), tessera::Error);
  EXPECT_THROW(tessera::NodeMap(std::vector<int>{}), tessera::Error);
}

TEST(NodeMap, LiveMapAgreesWithSharedMemorySplit) {
  auto& rt = tessera::testing::runtime();
  const tessera::NodeMap& map = rt.node_map();
  ASSERT_EQ(map.size(), rt.size());
  EXPECT_EQ(rt.node(), rt.node_of(rt.rank()));
  EXPECT_EQ(rt.node_of(0), 0);  // rank 0 is always the lowest rank of node 0
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(rt.comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local_ranks = 0;
  int local_rank = 0;
  MPI_Comm_size(node, &local_ranks);
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
  EXPECT_EQ(map.node_size(rt.node()), local_ranks);
  EXPECT_EQ(map.rank_in_node(rt.rank()), local_rank);
  // Every rank sees the same map: the sum of node ids over ranks agrees everywhere.
  int sum = 0;
  for (int r = 0; r < rt.size(); ++r) sum += rt.node_of(r);
  int low = sum;
  int high = sum;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT, MPI_MIN, rt.comm());
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT, MPI_MAX, rt.comm());
  EXPECT_EQ(low, high);
}

}  // namespace
