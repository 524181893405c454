// Pieces of split colors (color_pieces.hpp): their rectangles from the heap numbering, and the map
// from a cell to the color holding it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "tessera/pic/color_pieces.hpp"

namespace tessera::pic {
namespace {

void expect_rect(const CellRect& r, std::int64_t x0, std::int64_t y0, std::int64_t w, std::int64_t h) {
  EXPECT_EQ(r.x0, x0);
  EXPECT_EQ(r.y0, y0);
  EXPECT_EQ(r.width, w);
  EXPECT_EQ(r.height, h);
}

TEST(ColorPieces, PiecesHalveTheLongerSideWestOrSouthFirst) {
  const CellRect tile{10, 20, 5, 8};
  expect_rect(piece_rect(tile, 1), 10, 20, 5, 8);
  expect_rect(piece_rect(tile, 2), 10, 20, 5, 4);  // taller than wide: across y
  expect_rect(piece_rect(tile, 3), 10, 24, 5, 4);
  expect_rect(piece_rect(tile, 6), 10, 24, 2, 4);  // 5 wide: floor half west
  expect_rect(piece_rect(tile, 7), 12, 24, 3, 4);
  expect_rect(piece_rect({0, 0, 4, 4}, 2), 0, 0, 2, 4);  // a square splits across x
}

TEST(ColorPieces, AOneCellPieceHasNoHalves) {
  EXPECT_FALSE(splittable({0, 0, 1, 1}));
  EXPECT_TRUE(splittable({0, 0, 1, 2}));
  EXPECT_THROW(piece_rect({0, 0, 1, 1}, 2), std::logic_error);
  EXPECT_THROW(piece_rect({0, 0, 4, 4}, 0), std::logic_error);
}

TEST(ColorPieces, TheBoundCoversEveryPieceDownToOneCell) {
  for (const auto& [w, h] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {5, 8}, {120, 160}, {7, 1}}) {
    const std::uint64_t bound = piece_bound(w, h);
    // Walk every leaf of the full tree: the deepest piece number stays below the bound.
    std::vector<std::uint64_t> open{1};
    std::uint64_t deepest = 1;
    while (!open.empty()) {
      const std::uint64_t p = open.back();
      open.pop_back();
      deepest = std::max(deepest, p);
      if (splittable(piece_rect({0, 0, w, h}, p))) open.insert(open.end(), {2 * p, 2 * p + 1});
    }
    EXPECT_LT(deepest, bound) << w << " x " << h;
  }
}

TEST(ColorPieces, TheMapLocatesEveryCellInItsPiece) {
  PieceMap map(ColorCuts::even(TileGrid(16, 2, 2)));  // tiles of 8 x 8
  EXPECT_FALSE(map.split());
  EXPECT_EQ(map.locate(9, 3), (PieceId{{1, 0}, 1}));
  // Tile (0, 0) split into 2 and 3, and 3 again into 6 and 7; the others whole.
  const std::vector<PieceId> leaves{{{0, 0}, 2}, {{0, 0}, 6}, {{0, 0}, 7}, {{1, 0}, 1}, {{0, 1}, 1}, {{1, 1}, 1}};
  map.assign(leaves);
  EXPECT_TRUE(map.split());
  for (std::int64_t x = 0; x < 16; ++x) {
    for (std::int64_t y = 0; y < 16; ++y) {
      const PieceId id = map.locate(x, y);
      EXPECT_TRUE(map.rect(id).contains(x, y)) << x << ", " << y;
    }
  }
  EXPECT_EQ(map.locate(3, 7), (PieceId{{0, 0}, 2}));
  EXPECT_EQ(map.locate(4, 3), (PieceId{{0, 0}, 6}));
  EXPECT_EQ(map.locate(4, 4), (PieceId{{0, 0}, 7}));
}

TEST(ColorPieces, TheMapRefusesLeavesThatDoNotTileTheGrid) {
  PieceMap map(ColorCuts::even(TileGrid(16, 2, 1)));
  const std::vector<PieceId> missing{{{0, 0}, 2}, {{1, 0}, 1}};
  EXPECT_THROW(map.assign(missing), std::invalid_argument);
  const std::vector<PieceId> nested{{{0, 0}, 1}, {{0, 0}, 2}, {{0, 0}, 3}, {{1, 0}, 1}};
  EXPECT_THROW(map.assign(nested), std::invalid_argument);
  const std::vector<PieceId> twice{{{0, 0}, 1}, {{1, 0}, 1}, {{1, 0}, 1}};
  EXPECT_THROW(map.assign(twice), std::invalid_argument);
  const std::vector<PieceId> outside{{{0, 0}, 1}, {{2, 0}, 1}};
  EXPECT_THROW(map.assign(outside), std::invalid_argument);
  EXPECT_FALSE(map.split());  // a refused assignment leaves the map as it was
}

}  // namespace
}  // namespace tessera::pic
