#pragma once
/// Colors split into pieces: each tile of the color grid is the root of a binary tree of
/// rectangles, and the colors are the tree's leaves.
///
/// Piece p of a tile is numbered as in a binary heap: the tile itself is piece 1, and splitting
/// piece p makes pieces 2p and 2p + 1, its halves along its longer side (2p: the west or south
/// half, of floor(side / 2) cells; 2p + 1: the rest; a square splits across x). A piece's
/// rectangle therefore follows from the tile's rectangle and its number alone, and merging is
/// the inverse: pieces 2p and 2p + 1 become piece p again. Splits never cross a tile's border, so
/// a cell's color is found by locating its tile in the cuts (ColorCuts) and descending that
/// tile's tree.
///
/// PieceMap is that lookup for the whole grid: the cuts and, per tile, the pieces that are split.
/// It is rebuilt from the list of leaves (every color that exists) after a balancing that split or
/// merged colors, identically on every rank.
#include <cstdint>
#include <span>
#include <vector>

#include "tessera/pic/color_cuts.hpp"
#include "tessera/pic/geometry.hpp"
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic {

/// A color: piece `piece` (1: the whole tile) of tile (i, j).
struct PieceId {
  TileCoord tile;
  std::uint64_t piece = 1;

  friend bool operator==(const PieceId&, const PieceId&) = default;
};

/// The rectangle of piece `piece` (>= 1) of a tile covering `tile`. Throws std::logic_error if
/// the piece does not exist (a half of a piece one cell wide and high).
CellRect piece_rect(const CellRect& tile, std::uint64_t piece);

/// Whether a piece of rectangle `rect` can be split: its longer side is at least 2 cells.
bool splittable(const CellRect& rect);

/// The bound on piece numbers for tiles of at most `width` x `height` cells: every piece number
/// is below it (pieces stop splitting at one cell).
std::uint64_t piece_bound(std::int64_t width, std::int64_t height);

class PieceMap {
 public:
  /// Every tile of `cuts` whole (each color piece 1).
  explicit PieceMap(ColorCuts cuts);

  const ColorCuts& cuts() const { return cuts_; }

  /// Replaces the pieces with `leaves`, the colors that exist (any order). Throws
  /// std::invalid_argument if they do not tile the grid (a cell covered twice or not at all).
  void assign(std::span<const PieceId> leaves);

  /// The color holding cell (x, y), 0 <= x, y < L.
  PieceId locate(std::int64_t x, std::int64_t y) const;

  /// The cells of color `id`.
  CellRect rect(const PieceId& id) const { return piece_rect(cuts_.rect(id.tile), id.piece); }

  /// Whether any tile is split (locate() then descends trees).
  bool split() const { return split_count_ > 0; }

 private:
  bool is_split(std::size_t tile, std::uint64_t piece) const;

  ColorCuts cuts_;
  std::vector<std::vector<std::uint64_t>> split_;  // per tile (linear i + j tiles_x), sorted
  std::size_t split_count_ = 0;
};

}  // namespace tessera::pic
