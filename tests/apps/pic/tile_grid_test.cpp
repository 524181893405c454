#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <tessera/runtime/error.hpp>
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic {
namespace {

TEST(PicTileGrid, TilesPartitionTheGrid) {
  const TileGrid grid(10, 3, 4);
  std::vector<int> owner(100, -1);
  for (std::int64_t t = 0; t < grid.count(); ++t) {
    const CellRect r = grid.rect(grid.coord(t));
    EXPECT_GE(r.width, 3);
    EXPECT_LE(r.width, 4);
    for (std::int64_t x = r.x0; x < r.x0 + r.width; ++x) {
      for (std::int64_t y = r.y0; y < r.y0 + r.height; ++y) {
        EXPECT_EQ(owner[static_cast<std::size_t>(x * 10 + y)], -1);
        owner[static_cast<std::size_t>(x * 10 + y)] = static_cast<int>(t);
        EXPECT_EQ(grid.index(grid.tile_of_cell(x, y)), t);
      }
    }
  }
  for (int o : owner) {
    EXPECT_NE(o, -1);
  }
}

TEST(PicTileGrid, NeighboursWrapAround) {
  const TileGrid grid(12, 3, 2);
  EXPECT_EQ(grid.neighbour({2, 1}, Direction::east), (TileCoord{0, 1}));
  EXPECT_EQ(grid.neighbour({2, 1}, Direction::north_east), (TileCoord{0, 0}));
  EXPECT_EQ(grid.neighbour({0, 0}, Direction::south_west), (TileCoord{2, 1}));
  EXPECT_EQ(grid.neighbour({1, 0}, Direction::north), (TileCoord{1, 1}));
  for (Direction d : kAllDirections) {
    EXPECT_EQ(grid.neighbour(grid.neighbour({1, 1}, d), opposite(d)), (TileCoord{1, 1}));
  }
}

TEST(PicTileGrid, RejectsMoreTilesThanCells) {
  EXPECT_THROW(TileGrid(4, 5, 1), InputError);
  EXPECT_THROW(TileGrid(4, 1, 5), InputError);
  EXPECT_THROW(TileGrid(4, 0, 1), InputError);
  EXPECT_NO_THROW(TileGrid(4, 4, 4));
}

TEST(PicTileGrid, RejectsTilesSmallerThanTheTravel) {
  Problem p;
  p.grid_size = 12;
  p.distribution = Distribution::sinusoidal();
  p.k = 1;  // 3 cells per step in x
  p.m = 2;
  EXPECT_NO_THROW(TileGrid(12, 4, 6).check_travel(p));
  try {
    TileGrid(12, 6, 1).check_travel(p);
    ADD_FAILURE() << "2-cell-wide tiles accepted for a 3-cell travel";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2k+1 = 3"), std::string::npos) << e.what();
  }
  p.m = -3;
  EXPECT_THROW(TileGrid(12, 1, 6).check_travel(p), InputError);
}

}  // namespace
}  // namespace tessera::pic
