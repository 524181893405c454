#include "tessera/pic/color_cuts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include <tessera/runtime/error.hpp>

namespace tessera::pic {

namespace {

// Cuts 0 = c[0] < ... < c[strips] = L of one axis; see ColorCuts::balanced.
std::vector<std::int64_t> axis_cuts(std::span<const std::uint64_t> counts, std::int64_t strips, std::int64_t min_extent,
                                    double area_weight) {
  const auto lines = static_cast<std::int64_t>(counts.size());
  const auto total = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  // With no particles at all the cut follows the area alone.
  const double per_particle = total > 0.0 ? 1.0 / total : 0.0;
  const double per_line = (total > 0.0 ? area_weight : 1.0) / static_cast<double>(lines);
  const double whole = (total > 0.0 ? 1.0 : 0.0) + per_line * static_cast<double>(lines);
  std::vector<std::int64_t> cut(static_cast<std::size_t>(strips + 1), 0);
  cut.back() = lines;
  double cumulative = 0.0;
  std::int64_t end = 0;
  for (std::int64_t b = 1; b < strips; ++b) {
    const double target = whole * static_cast<double>(b) / static_cast<double>(strips);
    while (end < lines && cumulative < target) {
      cumulative += static_cast<double>(counts[static_cast<std::size_t>(end)]) * per_particle + per_line;
      ++end;
    }
    // Room for the strips on both sides, then at least min_extent after the previous cut.
    const std::int64_t lowest = std::max(b * min_extent, cut[static_cast<std::size_t>(b - 1)] + min_extent);
    cut[static_cast<std::size_t>(b)] = std::clamp(end, lowest, lines - (strips - b) * min_extent);
  }
  return cut;
}

std::int64_t strip_of(std::span<const std::int64_t> cuts, std::int64_t cell) {
  // The last cut at or before the cell.
  return static_cast<std::int64_t>(std::upper_bound(cuts.begin(), cuts.end(), cell) - cuts.begin()) - 1;
}

}  // namespace

ColorCuts ColorCuts::even(const TileGrid& grid) {
  ColorCuts cuts;
  for (std::int64_t i = 0; i <= grid.tiles_x(); ++i)
    cuts.x_.push_back(i < grid.tiles_x() ? grid.rect({i, 0}).x0 : grid.grid_size());
  for (std::int64_t j = 0; j <= grid.tiles_y(); ++j)
    cuts.y_.push_back(j < grid.tiles_y() ? grid.rect({0, j}).y0 : grid.grid_size());
  return cuts;
}

ColorCuts ColorCuts::balanced(const TileGrid& grid, std::span<const std::uint64_t> column_counts,
                              std::span<const std::uint64_t> row_counts, std::int64_t min_width,
                              std::int64_t min_height, double area_weight) {
  const std::int64_t L = grid.grid_size();
  if (static_cast<std::int64_t>(column_counts.size()) != L || static_cast<std::int64_t>(row_counts.size()) != L) {
    throw InputError(fmt::format("color cuts need {} column and {} row counts, got {} and {}", L, L,
                                 column_counts.size(), row_counts.size()));
  }
  if (min_width < 1 || min_height < 1) {
    throw InputError(fmt::format("color cuts: minimum color size {} x {} cells, expected at least 1 x 1",
                                 min_width, min_height));
  }
  if (grid.tiles_x() * min_width > L || grid.tiles_y() * min_height > L) {
    throw InputError(fmt::format("color cuts: {} x {} colors of at least {} x {} cells do not fit a grid of {} cells "
                                 "per side",
                                 grid.tiles_x(), grid.tiles_y(), min_width, min_height, L));
  }
  if (!(area_weight >= 0.0)) {
    throw InputError(fmt::format("color cuts: area weight {}, expected >= 0", area_weight));
  }
  ColorCuts cuts;
  cuts.x_ = axis_cuts(column_counts, grid.tiles_x(), min_width, area_weight);
  cuts.y_ = axis_cuts(row_counts, grid.tiles_y(), min_height, area_weight);
  return cuts;
}

CellRect ColorCuts::rect(TileCoord tile) const {
  const auto i = static_cast<std::size_t>(tile.i);
  const auto j = static_cast<std::size_t>(tile.j);
  return {x_[i], y_[j], x_[i + 1] - x_[i], y_[j + 1] - y_[j]};
}

TileCoord ColorCuts::tile_of_cell(std::int64_t x, std::int64_t y) const {
  return {strip_of(x_, x), strip_of(y_, y)};
}

}  // namespace tessera::pic
