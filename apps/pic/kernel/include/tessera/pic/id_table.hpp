#pragma once
/// Global particle numbering that does not depend on the decomposition.
///
/// Particles are numbered 1..N in global cell order, cell (x, y) before (x, y + 1) before
/// (x + 1, 0): the order of the LCG stream. A tile knows only its own cells, so numbering needs the
/// particle count of every (column, row block) segment: an L x tiles_y table. Each tile records its
/// column counts (from Tile::draw), the tables of all tiles are summed (in one process, or with an
/// MPI_Allreduce over `segments()` in a distributed driver), and `finish` turns counts into first
/// ids by an exclusive scan in global order.
#include <cstdint>
#include <span>
#include <vector>

#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic {

class IdTable {
 public:
  explicit IdTable(const TileGrid& grid);

  /// Writes the column counts of tile `tile` (one per column of its rect) into the table. Throws
  /// std::logic_error if the count of entries does not match the tile's width.
  void record(TileCoord tile, std::span<const std::uint64_t> column_counts);

  /// The raw table, L x tiles_y counts in global order, for summing across processes.
  std::span<std::uint64_t> segments() { return segments_; }

  /// Turns the summed counts into first ids. Call once, after every tile was recorded.
  void finish();

  /// Particles in the whole grid (valid after `finish`).
  std::uint64_t total() const { return total_; }

  /// The first id of each of the columns of `tile`, for Tile::place (valid after `finish`).
  std::vector<std::uint64_t> first_ids(TileCoord tile) const;

 private:
  std::size_t slot(std::int64_t column, std::int64_t row_block) const;

  TileGrid grid_;
  std::vector<std::uint64_t> segments_;
  std::uint64_t total_ = 0;
};

}  // namespace tessera::pic
