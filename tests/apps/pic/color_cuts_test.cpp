// Re-cutting colors: exact cuts on hand-made column and row counts, and a tile that
// changes shape gives up exactly the particles outside its new cells.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tessera/pic/color_cuts.hpp"
#include <tessera/runtime/error.hpp>
#include "tessera/pic/tile.hpp"

namespace tessera::pic {
namespace {

std::vector<std::int64_t> as_vector(std::span<const std::int64_t> cuts) { return {cuts.begin(), cuts.end()}; }

TEST(PicColorCuts, EvenCutsAreTheTileGridsRectangles) {
  const TileGrid grid(10, 3, 4);
  const ColorCuts cuts = ColorCuts::even(grid);
  EXPECT_EQ(as_vector(cuts.x()), (std::vector<std::int64_t>{0, 3, 6, 10}));
  EXPECT_EQ(as_vector(cuts.y()), (std::vector<std::int64_t>{0, 2, 5, 7, 10}));
  for (std::int64_t t = 0; t < grid.count(); ++t) {
    const CellRect a = grid.rect(grid.coord(t));
    const CellRect b = cuts.rect(grid.coord(t));
    EXPECT_EQ(a.x0, b.x0);
    EXPECT_EQ(a.y0, b.y0);
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.height, b.height);
  }
  for (std::int64_t x = 0; x < 10; ++x)
    for (std::int64_t y = 0; y < 10; ++y) EXPECT_EQ(cuts.tile_of_cell(x, y), grid.tile_of_cell(x, y));
}

TEST(PicColorCuts, ByParticlesAloneEachStripGetsItsShare) {
  // 40 particles in columns 0-3 (10 each) and rows 6-9 (10 each), 3 x 2 colors, area weight 0.
  // Columns: a third of the particles is reached after column 1 (a half), two thirds after
  // column 2 (three quarters): cuts at 2 and 3. Rows: half after row 7: cut at 8.
  const TileGrid grid(12, 3, 2);
  const std::vector<std::uint64_t> columns = {10, 10, 10, 10, 0, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<std::uint64_t> rows = {0, 0, 0, 0, 0, 0, 10, 10, 10, 10, 0, 0};
  const ColorCuts cuts = ColorCuts::balanced(grid, columns, rows, 1, 1, 0.0);
  EXPECT_EQ(as_vector(cuts.x()), (std::vector<std::int64_t>{0, 2, 3, 12}));
  EXPECT_EQ(as_vector(cuts.y()), (std::vector<std::int64_t>{0, 8, 12}));
  EXPECT_EQ(cuts.tile_of_cell(2, 7), (TileCoord{1, 0}));
  EXPECT_EQ(cuts.tile_of_cell(3, 8), (TileCoord{2, 1}));
  // A minimum width of 2 pushes the second cut from 3 to 4.
  const ColorCuts wide = ColorCuts::balanced(grid, columns, rows, 2, 1, 0.0);
  EXPECT_EQ(as_vector(wide.x()), (std::vector<std::int64_t>{0, 2, 4, 12}));
}

TEST(PicColorCuts, AreaWeightBlendsInTheCells) {
  // L = 10, particles 6, 10, 14, 10 in columns 0-3, area weight 1: column c weighs
  // count / 40 + 1 / 10, the whole 2. The half (1) is passed after column 2 (0.25, 0.6, 1.05).
  const TileGrid grid(10, 2, 1);
  const std::vector<std::uint64_t> columns = {6, 10, 14, 10, 0, 0, 0, 0, 0, 0};
  const std::vector<std::uint64_t> rows(10, 4);
  const ColorCuts cuts = ColorCuts::balanced(grid, columns, rows, 1, 1, 1.0);
  EXPECT_EQ(as_vector(cuts.x()), (std::vector<std::int64_t>{0, 3, 10}));
  EXPECT_EQ(as_vector(cuts.y()), (std::vector<std::int64_t>{0, 10}));
}

TEST(PicColorCuts, NoParticlesCutsByArea) {
  const TileGrid grid(10, 3, 1);
  const std::vector<std::uint64_t> none(10, 0);
  const ColorCuts cuts = ColorCuts::balanced(grid, none, none, 1, 1, 0.0);
  EXPECT_EQ(as_vector(cuts.x()), (std::vector<std::int64_t>{0, 4, 7, 10}));
}

TEST(PicColorCuts, RejectsInputThatCannotBeCut) {
  const TileGrid grid(10, 3, 1);
  const std::vector<std::uint64_t> ten(10, 1);
  const std::vector<std::uint64_t> nine(9, 1);
  EXPECT_THROW(ColorCuts::balanced(grid, nine, ten, 1, 1, 1.0), InputError);
  EXPECT_THROW(ColorCuts::balanced(grid, ten, ten, 0, 1, 1.0), InputError);
  EXPECT_THROW(ColorCuts::balanced(grid, ten, ten, 4, 1, 1.0), InputError);  // 3 x 4 > 10
  EXPECT_THROW(ColorCuts::balanced(grid, ten, ten, 1, 1, -0.5), InputError);
  EXPECT_NO_THROW(ColorCuts::balanced(grid, ten, ten, 3, 10, 1.0));
}

Particle at(double x, double y, std::uint64_t id) {
  Particle p;
  p.x = x;
  p.y = y;
  p.id = id;
  return p;
}

TEST(PicTile, ReshapeGivesUpExactlyTheParticlesOutsideItsNewCells) {
  Tile tile({0, 0, 4, 4}, 8);
  tile.accept(std::vector<Particle>{at(1.5, 1.5, 1), at(3.5, 0.5, 2), at(0.5, 3.5, 3), at(2.5, 3.5, 4)});
  const std::vector<Particle> leaving = tile.reshape({2, 0, 4, 4});
  EXPECT_EQ(tile.cells().x0, 2);
  EXPECT_EQ(tile.cells().width, 4);
  ASSERT_EQ(leaving.size(), 2U);
  EXPECT_EQ(leaving[0].id, 1U);
  EXPECT_EQ(leaving[1].id, 3U);
  ASSERT_EQ(tile.size(), 2U);
  EXPECT_EQ(tile.particles()[0].id, 2U);
  EXPECT_EQ(tile.particles()[1].id, 4U);
  // The same shape again gives up nothing.
  EXPECT_TRUE(tile.reshape({2, 0, 4, 4}).empty());
}

}  // namespace
}  // namespace tessera::pic
