#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/pic/decomposition.hpp"
#include <tessera/runtime/error.hpp>

namespace tessera::pic {
namespace {

Problem grid_of(std::int64_t L) {
  Problem p;
  p.grid_size = L;
  p.distribution = Distribution::sinusoidal();
  return p;
}

TEST(PicDecomposition, BalancedFactorsAreTheMostSquare) {
  EXPECT_EQ(balanced_factors(1), std::make_pair(std::int64_t{1}, std::int64_t{1}));
  EXPECT_EQ(balanced_factors(2), std::make_pair(std::int64_t{2}, std::int64_t{1}));
  EXPECT_EQ(balanced_factors(4), std::make_pair(std::int64_t{2}, std::int64_t{2}));
  EXPECT_EQ(balanced_factors(7), std::make_pair(std::int64_t{7}, std::int64_t{1}));
  EXPECT_EQ(balanced_factors(24), std::make_pair(std::int64_t{6}, std::int64_t{4}));
  EXPECT_THROW(balanced_factors(0), InputError);
}

TEST(PicDecomposition, ColorsNestInsideTheirHomeRank) {
  const Decomposition d(grid_of(50), 4, 6);
  EXPECT_EQ(d.ranks().tiles_x(), 2);
  EXPECT_EQ(d.ranks().tiles_y(), 2);
  EXPECT_EQ(d.colors().tiles_x(), 6);
  EXPECT_EQ(d.colors().tiles_y(), 4);
  std::vector<int> per_rank(4, 0);
  for (std::int64_t c = 0; c < d.colors().count(); ++c) {
    const CellRect color = d.colors().rect(d.colors().coord(c));
    const std::int64_t home = d.home_rank(c);
    ++per_rank[static_cast<std::size_t>(home)];
    const CellRect block = d.ranks().rect(d.ranks().coord(home));
    EXPECT_TRUE(block.contains(color.x0, color.y0)) << "color " << c;
    EXPECT_TRUE(block.contains(color.x0 + color.width - 1, color.y0 + color.height - 1)) << "color " << c;
  }
  for (int n : per_rank) {
    EXPECT_EQ(n, 6);
  }
}

TEST(PicDecomposition, OneColorPerRankIsTheSpmdLayout) {
  const Decomposition d(grid_of(24), 2, 1);
  EXPECT_EQ(d.colors().tiles_x(), 2);
  EXPECT_EQ(d.colors().tiles_y(), 1);
  EXPECT_EQ(d.home_rank(1), 1);
}

TEST(PicDecomposition, RejectsMoreColorsThanCells) {
  EXPECT_NO_THROW(Decomposition(grid_of(4), 2, 4));  // 4 x 2 colors of 1 x 2 cells
  try {
    Decomposition(grid_of(4), 2, 6);  // 6 x 2 colors on 4 cells per side
    ADD_FAILURE() << "12 colors accepted on a 4 x 4 grid split 6 x 2";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("12 colors split as 6 x 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Decomposition(grid_of(4), 5, 1), InputError);
}

TEST(PicDecomposition, RejectsColorsSmallerThanTheTravel) {
  Problem p = grid_of(48);
  p.k = 2;  // 5 cells per step
  EXPECT_NO_THROW(Decomposition(p, 2, 4));   // 4 x 2 colors of 12 x 24 cells
  EXPECT_THROW(Decomposition(p, 2, 24), InputError);  // 12 x 4 colors of 4 x 12 cells
}

}  // namespace
}  // namespace tessera::pic
