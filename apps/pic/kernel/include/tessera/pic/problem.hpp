#pragma once
/// The PIC problem: grid, physics constants, particle parameters and initial distribution.
///
/// An L x L periodic grid of cells (L even) with fixed charges on the (L+1)^2 vertices, +Q on even
/// columns and -Q on odd ones; Q = 1, DT = 1, MASS_INV = 1. Each particle starts at a cell centre
/// with v = (0, m / DT) and a charge chosen so that it moves exactly 2k+1 cells in +x and m cells
/// in y per step (ParRes Kernels PIC, Georganas et al., IPDPS 2016).
#include <bit>
#include <cstdint>

#include "tessera/pic/distribution.hpp"

namespace tessera::pic {

inline constexpr double kCharge = 1.0;       ///< Q, magnitude of the grid charges
inline constexpr double kTimeStep = 1.0;     ///< DT
inline constexpr double kInverseMass = 1.0;  ///< MASS_INV

/// The charge of grid column `column`: +Q on even columns, -Q on odd ones.
///
/// Branch-free (the parity flips the sign bit): a tile's particles lose their column order as
/// departures are back-filled and arrivals appended, and a branch on the parity then mispredicts
/// about every other particle, which cost the mover 5-8 % on 48 colors (perf).
inline double column_charge(std::int64_t column) {
  const auto odd = static_cast<std::uint64_t>(column & 1);
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(kCharge) ^ (odd << 63));
}

/// base_charge = 1 / (DT^2 Q (cos(theta) / r1^2 + cos(phi) / r2^2)) for a particle at the cell
/// centre, where r1, r2 are the distances to the nearest left and right charges and theta, phi the
/// angles between those lines and the x axis.
double base_charge();

struct Problem {
  std::int64_t grid_size = 960;     ///< L, cells per side, even
  std::uint64_t particles = 600000;  ///< n, requested total (the draw places about this many)
  std::int64_t k = 0;               ///< x travel per step is 2k+1 cells, k >= 0
  std::int64_t m = 1;               ///< y travel per step is m cells, |m| < L
  Distribution distribution = Distribution::patch_of({0, 239, 0, 239});

  /// Throws InputError naming the first bad parameter: odd or non-positive L, k < 0, |m| >= L,
  /// n = 0, or a distribution that does not fit the grid.
  void validate() const;

  std::int64_t x_travel() const { return 2 * k + 1; }
  std::int64_t y_travel() const { return m < 0 ? -m : m; }
};

}  // namespace tessera::pic
