#include "tessera/pic/problem.hpp"

#include <fmt/format.h>

#include <cmath>

#include <tessera/runtime/error.hpp>

namespace tessera::pic {

double base_charge() {
  // The particle sits at (0.5, 0.5) inside its cell; r1 and r2 reach the charges at the cell's
  // left and right corners of the same row.
  const double rel_x = 0.5;
  const double rel_y = 0.5;
  const double r1_sq = rel_y * rel_y + rel_x * rel_x;
  const double r2_sq = rel_y * rel_y + (1.0 - rel_x) * (1.0 - rel_x);
  const double cos_theta = rel_x / std::sqrt(r1_sq);
  const double cos_phi = (1.0 - rel_x) / std::sqrt(r2_sq);
  return 1.0 / (kTimeStep * kTimeStep * kCharge * (cos_theta / r1_sq + cos_phi / r2_sq));
}

void Problem::validate() const {
  if (grid_size < 2 || grid_size % 2 != 0) {
    throw InputError(fmt::format("--L {}: the grid size must be an even number >= 2 (the charges "
                                 "alternate by column and must stay periodic)",
                                 grid_size));
  }
  if (k < 0) {
    throw InputError(fmt::format("--k {}: k must be >= 0 (particles move 2k+1 cells per step)", k));
  }
  if (x_travel() >= grid_size) {
    throw InputError(fmt::format("--k {}: a particle would travel 2k+1 = {} cells per step, which "
                                 "must be less than L = {}",
                                 k, x_travel(), grid_size));
  }
  if (y_travel() >= grid_size) {
    throw InputError(fmt::format("--m {}: |m| must be less than L = {}", m, grid_size));
  }
  if (particles == 0) {
    throw InputError("--n 0: the requested particle count must be >= 1");
  }
  distribution.validate(grid_size);
}

}  // namespace tessera::pic
