#pragma once
/// Where the color boundaries lie: a tensor-product partition of the L x L grid whose column and
/// row cuts may sit anywhere, so that colors can be narrow where the particles are and wide where
/// they are not.
///
/// A TileGrid splits the grid evenly. On a drifting patch that leaves two or three colors holding
/// most of the particles: no balancer can then do better than the largest color allows (the
/// granularity limit). Re-cutting splits the heavy colors and merges the light ones
/// while the collection keeps its elements: color (i, j) covers columns [x[i], x[i+1]) and rows
/// [y[j], y[j+1]), and moving the cuts moves cells, with their particles, between neighbouring
/// colors. The topology does not change (color (i, j) keeps its 8 neighbours), so a particle that
/// leaves a color still lands in a neighbour as long as every color is at least a step's travel
/// wide and high, which the cuts guarantee.
///
/// The cuts are weighted quantiles of the particle counts per column and per row, blended with the
/// cell count (`area_weight`): a weight of 0 gives every color strip the same particles, which
/// makes the loaded strips thin (a thin color sends a larger share of its particles to its
/// neighbours every step); 1 gives half the strips by particles and half by area.
#include <cstdint>
#include <span>
#include <vector>

#include "tessera/pic/geometry.hpp"
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic {

class ColorCuts {
 public:
  /// The even split of TileGrid: the same rectangles, cut for cut.
  static ColorCuts even(const TileGrid& grid);

  /// Cuts for `grid`'s tiles_x x tiles_y colors from the particle count of every column and every
  /// row (L entries each). Strip b of an axis ends where the cumulative weight, count / total +
  /// area_weight / L per cell line, first reaches (b + 1) / strips of the whole; every strip is at
  /// least `min_width` columns wide (`min_height` rows high). Deterministic: the same counts give
  /// the same cuts on every rank. Throws InputError when the counts do not have L entries, a
  /// minimum is below 1, the strips cannot fit (strips x minimum > L) or area_weight < 0.
  static ColorCuts balanced(const TileGrid& grid, std::span<const std::uint64_t> column_counts,
                            std::span<const std::uint64_t> row_counts, std::int64_t min_width,
                            std::int64_t min_height, double area_weight);

  std::int64_t tiles_x() const { return static_cast<std::int64_t>(x_.size()) - 1; }
  std::int64_t tiles_y() const { return static_cast<std::int64_t>(y_.size()) - 1; }
  /// Column cuts x[0] = 0 < x[1] < ... < x[tiles_x] = L; likewise rows.
  std::span<const std::int64_t> x() const { return x_; }
  std::span<const std::int64_t> y() const { return y_; }

  /// The cells of color (i, j).
  CellRect rect(TileCoord tile) const;
  /// The color holding cell (x, y), 0 <= x, y < L.
  TileCoord tile_of_cell(std::int64_t x, std::int64_t y) const;

  friend bool operator==(const ColorCuts&, const ColorCuts&) = default;

 private:
  std::vector<std::int64_t> x_;
  std::vector<std::int64_t> y_;
};

}  // namespace tessera::pic
