#include "tessera/pic/id_table.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace tessera::pic {

IdTable::IdTable(const TileGrid& grid)
    : grid_(grid), segments_(static_cast<std::size_t>(grid.grid_size() * grid.tiles_y()), 0) {}

std::size_t IdTable::slot(std::int64_t column, std::int64_t row_block) const {
  return static_cast<std::size_t>(column * grid_.tiles_y() + row_block);
}

void IdTable::record(TileCoord tile, std::span<const std::uint64_t> column_counts) {
  const CellRect rect = grid_.rect(tile);
  if (column_counts.size() != static_cast<std::size_t>(rect.width)) {
    throw std::logic_error(fmt::format("IdTable::record: tile ({}, {}) has {} columns, got {} counts",
                                       tile.i, tile.j, rect.width, column_counts.size()));
  }
  for (std::int64_t c = 0; c < rect.width; ++c) {
    segments_[slot(rect.x0 + c, tile.j)] = column_counts[static_cast<std::size_t>(c)];
  }
}

void IdTable::finish() {
  // Slot order (column-major over row blocks) is global cell order, so an exclusive scan gives
  // each segment the number of particles before it; ids start at 1.
  std::uint64_t before = 0;
  for (std::uint64_t& entry : segments_) {
    const std::uint64_t count = entry;
    entry = before + 1;
    before += count;
  }
  total_ = before;
}

std::vector<std::uint64_t> IdTable::first_ids(TileCoord tile) const {
  const CellRect rect = grid_.rect(tile);
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(rect.width));
  for (std::int64_t c = 0; c < rect.width; ++c) {
    ids[static_cast<std::size_t>(c)] = segments_[slot(rect.x0 + c, tile.j)];
  }
  return ids;
}

}  // namespace tessera::pic
