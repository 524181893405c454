#include "tessera/pic/tile_grid.hpp"

#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::pic {

namespace {

std::int64_t block_start(std::int64_t block, std::int64_t blocks, std::int64_t cells) {
  return block * cells / blocks;
}

// Largest block b with block_start(b) <= cell: b <= ((cell + 1) blocks - 1) / cells.
std::int64_t block_of(std::int64_t cell, std::int64_t blocks, std::int64_t cells) {
  return ((cell + 1) * blocks - 1) / cells;
}

std::int64_t wrap(std::int64_t value, std::int64_t period) { return ((value % period) + period) % period; }

}  // namespace

TileGrid::TileGrid(std::int64_t grid_size, std::int64_t tiles_x, std::int64_t tiles_y)
    : grid_size_(grid_size), tiles_x_(tiles_x), tiles_y_(tiles_y) {
  if (tiles_x < 1 || tiles_y < 1) {
    throw InputError(fmt::format("a {} x {} tile layout is empty; expected at least 1 x 1", tiles_x, tiles_y));
  }
  if (tiles_x > grid_size || tiles_y > grid_size) {
    throw InputError(fmt::format(
        "a {} x {} tile layout has more tiles per side than the grid has cells (L = {}); use a "
        "larger --L or fewer tiles",
        tiles_x, tiles_y, grid_size));
  }
}

void TileGrid::check_travel(const Problem& problem) const {
  const std::int64_t narrowest = grid_size_ / tiles_x_;
  const std::int64_t lowest = grid_size_ / tiles_y_;
  if (narrowest < problem.x_travel()) {
    throw InputError(fmt::format(
        "tiles of {} x {} cells (L = {} split {} x {}) are narrower than a particle's per-step "
        "travel of 2k+1 = {} cells in x (--k {}); use a larger --L, a smaller --k or fewer tiles",
        narrowest, lowest, grid_size_, tiles_x_, tiles_y_, problem.x_travel(), problem.k));
  }
  if (lowest < problem.y_travel()) {
    throw InputError(fmt::format(
        "tiles of {} x {} cells (L = {} split {} x {}) are lower than a particle's per-step "
        "travel of |m| = {} cells in y (--m {}); use a larger --L, a smaller |m| or fewer tiles",
        narrowest, lowest, grid_size_, tiles_x_, tiles_y_, problem.y_travel(), problem.m));
  }
}

CellRect TileGrid::rect(TileCoord tile) const {
  const std::int64_t x0 = block_start(tile.i, tiles_x_, grid_size_);
  const std::int64_t y0 = block_start(tile.j, tiles_y_, grid_size_);
  return {x0, y0, block_start(tile.i + 1, tiles_x_, grid_size_) - x0,
          block_start(tile.j + 1, tiles_y_, grid_size_) - y0};
}

TileCoord TileGrid::tile_of_cell(std::int64_t x, std::int64_t y) const {
  return {block_of(x, tiles_x_, grid_size_), block_of(y, tiles_y_, grid_size_)};
}

TileCoord TileGrid::neighbour(TileCoord tile, Direction d) const {
  const Offset o = offset(d);
  return {wrap(tile.i + o.dx, tiles_x_), wrap(tile.j + o.dy, tiles_y_)};
}

}  // namespace tessera::pic
