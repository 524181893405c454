#pragma once
/// A decomposition of the L x L grid into tiles_x x tiles_y rectangular tiles.
///
/// Column block i covers cells floor(i L / tiles_x) <= x < floor((i+1) L / tiles_x), likewise rows,
/// so tile sizes differ by at most one cell. Tile (i, j) has index i + j tiles_x. The grid is
/// periodic: the east neighbour of the last column block is block 0.
#include <cstdint>

#include "tessera/pic/geometry.hpp"
#include "tessera/pic/problem.hpp"

namespace tessera::pic {

struct TileCoord {
  std::int64_t i = 0;  ///< column block, 0 <= i < tiles_x
  std::int64_t j = 0;  ///< row block, 0 <= j < tiles_y

  friend bool operator==(const TileCoord&, const TileCoord&) = default;
};

class TileGrid {
 public:
  /// Throws InputError if tiles_x or tiles_y is < 1 or exceeds L (more tiles than cells).
  TileGrid(std::int64_t grid_size, std::int64_t tiles_x, std::int64_t tiles_y);

  /// Throws InputError if the smallest tile is narrower than 2k+1 cells or lower than |m| cells:
  /// a particle must never skip over a whole tile in one step, so that everything that leaves a
  /// tile lands in one of its 8 neighbours.
  void check_travel(const Problem& problem) const;

  std::int64_t grid_size() const { return grid_size_; }
  std::int64_t tiles_x() const { return tiles_x_; }
  std::int64_t tiles_y() const { return tiles_y_; }
  std::int64_t count() const { return tiles_x_ * tiles_y_; }

  std::int64_t index(TileCoord tile) const { return tile.i + tile.j * tiles_x_; }
  TileCoord coord(std::int64_t index) const { return {index % tiles_x_, index / tiles_x_}; }

  CellRect rect(TileCoord tile) const;

  /// The tile holding cell (x, y), 0 <= x, y < L.
  TileCoord tile_of_cell(std::int64_t x, std::int64_t y) const;

  /// The neighbour of `tile` in direction `d`, wrapping around the periodic grid.
  TileCoord neighbour(TileCoord tile, Direction d) const;

 private:
  std::int64_t grid_size_;
  std::int64_t tiles_x_;
  std::int64_t tiles_y_;
};

}  // namespace tessera::pic
