#pragma once
/// Initial particle distributions of the ParRes Kernels PIC benchmark, and the per-cell draw.
///
/// Each distribution gives the expected number of particles mu in cell (x, y) of an L x L grid
/// for a requested total n; the actual count is one random draw per cell (`draw_count`), so the
/// total placed is close to, not equal to, n. Column x means cells with x <= position < x + 1.
///
/// | name       | parameters        | mu(x, y)                                                   |
/// | ---------- | ----------------- | ---------------------------------------------------------- |
/// | GEOMETRIC  | rho > 0           | A rho^x, A = n (1 - rho) / (1 - rho^L) / L                 |
/// | SINUSOIDAL | none              | 2 cos^2(pi x / L) n / L^2                                  |
/// | LINEAR     | alpha, beta       | n (beta - alpha x / L) / (beta L - alpha (L - 1) / 2) / L  |
/// | PATCH      | xl, xr, yb, yt    | n / cells(patch) inside the inclusive box, 0 outside       |
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/pic/lcg.hpp"

namespace tessera::pic {

enum class DistributionKind { geometric, sinusoidal, linear, patch };

/// An inclusive box of cells: left <= x <= right, bottom <= y <= top.
struct Patch {
  std::int64_t left = 0;
  std::int64_t right = 0;
  std::int64_t bottom = 0;
  std::int64_t top = 0;

  bool contains(std::int64_t x, std::int64_t y) const {
    return x >= left && x <= right && y >= bottom && y <= top;
  }
  std::int64_t cells() const { return (right - left + 1) * (top - bottom + 1); }
};

struct Distribution {
  DistributionKind kind = DistributionKind::patch;
  double rho = 0.0;    ///< GEOMETRIC ratio between neighbouring columns
  double alpha = 0.0;  ///< LINEAR slope of the weight
  double beta = 0.0;   ///< LINEAR weight of column 0
  Patch patch{};       ///< PATCH box

  static Distribution geometric(double rho);
  static Distribution sinusoidal();
  static Distribution linear(double alpha, double beta);
  static Distribution patch_of(Patch box);

  /// Parses the benchmark's spelling: a name (case-insensitive) and its parameters, e.g.
  /// {"PATCH", "0", "239", "0", "239"}. Throws InputError naming the bad word and the expected form.
  static Distribution parse(const std::vector<std::string>& words);

  /// Throws InputError if the parameters do not make a distribution on an L x L grid.
  void validate(std::int64_t grid_size) const;

  /// Expected particle count of cell (x, y) for a requested total of `particles`.
  double mean(std::int64_t x, std::int64_t y, std::int64_t grid_size, double particles) const;

  /// True if the cell can hold particles (false only outside a PATCH), so tiles skip empty cells.
  bool may_populate(std::int64_t x, std::int64_t y) const {
    return kind != DistributionKind::patch || patch.contains(x, y);
  }

  /// The benchmark's spelling, e.g. "PATCH 0 239 0 239".
  std::string describe() const;
};

/// Draws a cell's particle count of mean `mu`, consuming exactly two LCG states: for mu >= 1 a
/// normal variate (Box-Muller, sigma = 0.15 mu) rounded to the nearest non-negative integer, below
/// 1 a Bernoulli draw with probability mu.
std::uint64_t draw_count(double mu, Lcg& lcg);

}  // namespace tessera::pic
