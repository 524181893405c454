// The Jacobi kernel in one process: the partition, one sweep with known values, and the property
// the example rests on: a grid cut into blocks that trade edges sweeps exactly like one block.
#include "tessera/jacobi/block.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace {

using namespace tessera::jacobi;

TEST(JacobiPartition, PartsCoverTheRangeAndDifferByAtMostOne) {
  EXPECT_EQ(part(10, 3, 0), (Range{0, 3}));
  EXPECT_EQ(part(10, 3, 1), (Range{3, 6}));
  EXPECT_EQ(part(10, 3, 2), (Range{6, 10}));
  EXPECT_EQ(part(7, 7, 6), (Range{6, 7}));
  EXPECT_EQ(part(5, 1, 0), (Range{0, 5}));
}

TEST(JacobiBlock, OneSweepFromZeroGivesTheBoundaryMeans) {
  Block b(Range{0, 2}, Range{0, 2}, 2, 2);
  EXPECT_EQ(b.at(-1, 0), 1.0);  // north boundary
  EXPECT_EQ(b.at(0, -1), 0.5);  // west boundary
  EXPECT_EQ(b.at(2, 1), 0.0);   // south boundary
  EXPECT_EQ(b.relax(), 0.375);
  EXPECT_EQ(b.at(0, 0), 0.25 * (1.0 + 0.5));
  EXPECT_EQ(b.at(0, 1), 0.25);
  EXPECT_EQ(b.at(1, 0), 0.125);
  EXPECT_EQ(b.at(1, 1), 0.0);
  EXPECT_EQ(b.edge(Side::north), (std::vector<double>{0.375, 0.25}));
  EXPECT_EQ(b.edge(Side::east), (std::vector<double>{0.25, 0.0}));
}

TEST(JacobiBlock, InteriorSidesAreNotBoundary) {
  const Block b(Range{2, 4}, Range{0, 3}, 6, 3);
  EXPECT_FALSE(b.on_boundary(Side::north));
  EXPECT_FALSE(b.on_boundary(Side::south));
  EXPECT_TRUE(b.on_boundary(Side::west));
  EXPECT_TRUE(b.on_boundary(Side::east));
  EXPECT_EQ(opposite(Side::north), Side::south);
  EXPECT_EQ(opposite(Side::east), Side::west);
}

TEST(JacobiBlock, HaloOfTheWrongLengthIsRejected) {
  Block b(Range{0, 2}, Range{0, 3}, 4, 3);
  const std::vector<double> two(2, 1.0);
  EXPECT_THROW(b.set_halo(Side::south, two), std::logic_error);
  EXPECT_NO_THROW(b.set_halo(Side::west, two));
}

// Sweeps a 7 x 9 grid as 3 x 2 blocks trading edges, and as one block: same residual every
// sweep, same fingerprint at the end, bit for bit.
TEST(JacobiBlock, BlocksTradingEdgesMatchOneBlockBitwise) {
  const std::int64_t ny = 7, nx = 9, br = 3, bc = 2;
  Block whole(Range{0, ny}, Range{0, nx}, ny, nx);
  std::vector<Block> blocks;
  for (std::int64_t i = 0; i < br; ++i)
    for (std::int64_t j = 0; j < bc; ++j) blocks.emplace_back(part(ny, br, i), part(nx, bc, j), ny, nx);
  auto at = [&](std::int64_t i, std::int64_t j) -> Block& { return blocks[static_cast<std::size_t>(i * bc + j)]; };
  for (int sweep = 0; sweep < 25; ++sweep) {
    for (std::int64_t i = 0; i < br; ++i) {
      for (std::int64_t j = 0; j < bc; ++j) {
        if (i > 0) at(i, j).set_halo(Side::north, at(i - 1, j).edge(Side::south));
        if (i + 1 < br) at(i, j).set_halo(Side::south, at(i + 1, j).edge(Side::north));
        if (j > 0) at(i, j).set_halo(Side::west, at(i, j - 1).edge(Side::east));
        if (j + 1 < bc) at(i, j).set_halo(Side::east, at(i, j + 1).edge(Side::west));
      }
    }
    double change = 0.0;
    for (Block& b : blocks) change = std::max(change, b.relax());
    ASSERT_EQ(change, whole.relax()) << "sweep " << sweep;
  }
  std::uint64_t print = 0;
  for (const Block& b : blocks) print ^= b.fingerprint();
  EXPECT_EQ(print, whole.fingerprint());
  EXPECT_NE(print, Block(Range{0, ny}, Range{0, nx}, ny, nx).fingerprint());
}

}  // namespace
