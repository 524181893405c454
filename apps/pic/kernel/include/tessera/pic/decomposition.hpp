#pragma once
/// How the grid is split among ranks, and each rank's block among colors (overdecomposition).
///
/// Ranks form a balanced ranks_x x ranks_y grid (the most square factorization, as
/// MPI_Dims_create gives); each rank's block is split into colors_x x colors_y colors the same way.
/// The colors together form one (ranks_x colors_x) x (ranks_y colors_y) TileGrid whose block edges
/// include every rank edge, so color (i, j) starts on rank (i / colors_x, j / colors_y): its home.
/// With one color per rank the colors are the SPMD tiles.
#include <cstdint>
#include <utility>

#include "tessera/pic/problem.hpp"
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic {

/// The factors (a, b) of n with a * b = n, a >= b and a - b smallest. Throws InputError if n < 1.
std::pair<std::int64_t, std::int64_t> balanced_factors(std::int64_t n);

class Decomposition {
 public:
  /// Throws InputError if there are more colors per side than cells per side, or if a color is
  /// smaller than a particle's per-step travel (TileGrid::check_travel).
  Decomposition(const Problem& problem, std::int64_t ranks, std::int64_t colors_per_rank);
  /// A given tiles_x x tiles_y grid of colors on `ranks` ranks (a restart onto another rank count):
  /// color (i, j)'s home is the rank whose block of the ranks grid holds it, (i rx / tiles_x,
  /// j ry / tiles_y). Throws InputError when the ranks grid has more blocks per side than colors.
  Decomposition(const Problem& problem, std::int64_t ranks, std::int64_t tiles_x, std::int64_t tiles_y);

  /// One tile per rank, index = rank.
  const TileGrid& ranks() const { return ranks_; }

  /// Every color of every rank, index = color id.
  const TileGrid& colors() const { return colors_; }

  /// The rank whose block holds color `color` (its rank before any migration).
  std::int64_t home_rank(std::int64_t color) const;

 private:
  TileGrid ranks_;
  TileGrid colors_;
};

}  // namespace tessera::pic
