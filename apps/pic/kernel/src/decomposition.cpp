#include "tessera/pic/decomposition.hpp"

#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::pic {

std::pair<std::int64_t, std::int64_t> balanced_factors(std::int64_t n) {
  if (n < 1) {
    throw InputError(fmt::format("cannot split the grid into {} parts; expected at least 1", n));
  }
  std::int64_t b = 1;
  for (std::int64_t f = 1; f * f <= n; ++f) {
    if (n % f == 0) {
      b = f;
    }
  }
  return {n / b, b};
}

namespace {

TileGrid checked_grid(std::int64_t grid_size, std::int64_t tiles_x, std::int64_t tiles_y, const char* what,
                      std::int64_t count) {
  if (tiles_x > grid_size || tiles_y > grid_size) {
    throw InputError(fmt::format(
        "{} {} split as {} x {} has more parts per side than the grid has cells (L = {}); use a "
        "larger --L or fewer {}",
        count, what, tiles_x, tiles_y, grid_size, what));
  }
  return TileGrid(grid_size, tiles_x, tiles_y);
}

}  // namespace

Decomposition::Decomposition(const Problem& problem, std::int64_t ranks, std::int64_t colors_per_rank)
    : ranks_(checked_grid(problem.grid_size, balanced_factors(ranks).first, balanced_factors(ranks).second,
                          "ranks", ranks)),
      colors_(checked_grid(problem.grid_size, ranks_.tiles_x() * balanced_factors(colors_per_rank).first,
                           ranks_.tiles_y() * balanced_factors(colors_per_rank).second, "colors",
                           ranks * colors_per_rank)) {
  colors_.check_travel(problem);
}

Decomposition::Decomposition(const Problem& problem, std::int64_t ranks, std::int64_t tiles_x, std::int64_t tiles_y)
    : ranks_(checked_grid(problem.grid_size, balanced_factors(ranks).first, balanced_factors(ranks).second,
                          "ranks", ranks)),
      colors_(checked_grid(problem.grid_size, tiles_x, tiles_y, "colors", tiles_x * tiles_y)) {
  if (ranks_.tiles_x() > tiles_x || ranks_.tiles_y() > tiles_y) {
    throw InputError(fmt::format("{} ranks split as {} x {} do not fit the {} x {} colors of the checkpoint; use "
                                 "fewer ranks",
                                 ranks, ranks_.tiles_x(), ranks_.tiles_y(), tiles_x, tiles_y));
  }
  colors_.check_travel(problem);
}

// Each colors block lies inside one ranks block whenever the colors grid is a multiple of the
// ranks grid (the first constructor), and the formula gives that block: i / colors_x.
std::int64_t Decomposition::home_rank(std::int64_t color) const {
  const TileCoord c = colors_.coord(color);
  return ranks_.index({c.i * ranks_.tiles_x() / colors_.tiles_x(), c.j * ranks_.tiles_y() / colors_.tiles_y()});
}

}  // namespace tessera::pic
