#pragma once
/// Every tile of a decomposition in one process: the reference the distributed modes are checked
/// against, and the simplest complete use of the tile interface.
#include <cstdint>
#include <vector>

#include "tessera/pic/problem.hpp"
#include "tessera/pic/tile.hpp"
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic {

/// Creates and initializes every tile of `grid` (index order), numbering particles globally.
std::vector<Tile> make_tiles(const Problem& problem, const TileGrid& grid);

/// The particles of `tiles`, sorted by id.
std::vector<Particle> sorted_by_id(const std::vector<Tile>& tiles);

class SerialRun {
 public:
  /// Validates the problem and the grid against it (InputError), then initializes every tile.
  SerialRun(const Problem& problem, const TileGrid& grid);

  /// One time step: every tile moves, then departures are handed to the neighbour tiles. Returns
  /// the tiles' particle-update time summed (seconds).
  UpdateTime step();

  const std::vector<Tile>& tiles() const { return tiles_; }
  std::int64_t steps_done() const { return steps_done_; }
  std::uint64_t placed() const { return placed_; }

  /// The merged self-check after the steps done so far.
  Verification verify() const;

 private:
  Problem problem_;
  TileGrid grid_;
  std::vector<Tile> tiles_;
  std::uint64_t placed_ = 0;
  std::int64_t steps_done_ = 0;
};

}  // namespace tessera::pic
