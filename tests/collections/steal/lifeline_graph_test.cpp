#include "tessera/collections/steal/lifeline_graph.hpp"

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::collections::steal {
namespace {

using Ranks = std::vector<std::int32_t>;

TEST(LifelineGraph, PublishedExamplesOfTheCyclicHypercube) {
  const LifelineGraph sixteen(16, 4);
  EXPECT_EQ(sixteen.dimension(), 2);
  EXPECT_EQ(sixteen.outgoing(0), (Ranks{3, 12}));
  EXPECT_EQ(sixteen.outgoing(5), (Ranks{4, 1}));
  const LifelineGraph ten(10, 4);
  EXPECT_EQ(ten.dimension(), 2);
  EXPECT_EQ(ten.outgoing(9), (Ranks{8, 5}));
  // Rank 0's second-digit neighbour 12 is no rank of 10; the cycle continues to 8.
  EXPECT_EQ(ten.outgoing(0), (Ranks{3, 8}));
}

TEST(LifelineGraph, DimensionIsTheSmallestPowerCoveringTheRanks) {
  EXPECT_EQ(LifelineGraph(1, 2).dimension(), 0);
  EXPECT_EQ(LifelineGraph(2, 2).dimension(), 1);
  EXPECT_EQ(LifelineGraph(8, 2).dimension(), 3);
  EXPECT_EQ(LifelineGraph(9, 2).dimension(), 4);
  EXPECT_EQ(LifelineGraph(64, 4).dimension(), 3);
  EXPECT_EQ(LifelineGraph(65, 4).dimension(), 4);
  EXPECT_EQ(LifelineGraph(1, 5).outgoing(0), Ranks{});
}

// Ranks reachable from `start` following outgoing (forward) or incoming (backward) edges.
std::int32_t reachable(const LifelineGraph& graph, std::int32_t start, bool forward) {
  std::vector<bool> seen(static_cast<std::size_t>(graph.ranks()), false);
  std::queue<std::int32_t> frontier;
  frontier.push(start);
  seen[static_cast<std::size_t>(start)] = true;
  std::int32_t count = 1;
  while (!frontier.empty()) {
    const std::int32_t rank = frontier.front();
    frontier.pop();
    for (const std::int32_t next : forward ? graph.outgoing(rank) : graph.incoming(rank)) {
      if (!seen[static_cast<std::size_t>(next)]) {
        seen[static_cast<std::size_t>(next)] = true;
        ++count;
        frontier.push(next);
      }
    }
  }
  return count;
}

TEST(LifelineGraph, StronglyConnectedLowDegreeAndIncomingIsTheInverse) {
  for (std::int32_t radix = 2; radix <= 5; ++radix) {
    for (std::int32_t ranks = 1; ranks <= 64; ++ranks) {
      SCOPED_TRACE(testing::Message() << "P=" << ranks << " l=" << radix);
      const LifelineGraph graph(ranks, radix);
      std::vector<Ranks> inverse(static_cast<std::size_t>(ranks));
      for (std::int32_t rank = 0; rank < ranks; ++rank) {
        const Ranks out = graph.outgoing(rank);
        EXPECT_LE(static_cast<std::int32_t>(out.size()), graph.dimension());
        EXPECT_EQ(std::count(out.begin(), out.end(), rank), 0);
        for (const std::int32_t target : out) {
          inverse[static_cast<std::size_t>(target)].push_back(rank);
        }
      }
      for (std::int32_t rank = 0; rank < ranks; ++rank) {
        Ranks in = graph.incoming(rank);
        std::sort(in.begin(), in.end());
        std::sort(inverse[static_cast<std::size_t>(rank)].begin(), inverse[static_cast<std::size_t>(rank)].end());
        EXPECT_EQ(in, inverse[static_cast<std::size_t>(rank)]);
      }
      // Everything reachable from 0 and 0 reachable from everything: strongly connected.
      EXPECT_EQ(reachable(graph, 0, true), ranks);
      EXPECT_EQ(reachable(graph, 0, false), ranks);
    }
  }
}

TEST(LifelineGraph, RejectsBadArguments) {
  EXPECT_THROW(LifelineGraph(0, 2), std::invalid_argument);
  EXPECT_THROW(LifelineGraph(4, 1), std::invalid_argument);
  EXPECT_THROW(LifelineGraph(4, 2).outgoing(4), std::out_of_range);
  EXPECT_THROW(LifelineGraph(4, 2).incoming(-1), std::out_of_range);
}

}  // namespace
}  // namespace tessera::collections::steal
