#pragma once
/// A block's cells and what is done to them: kVariables values per cell, stored variable by
/// variable, row by row (B x B each). Values are densities: a block's contribution to a
/// variable's total is the sum of its values times the cell area, (block side / B)^2.
///
/// - step(): one conservative diffusion pass per variable: each cell exchanges alpha times the
///   difference with each face neighbour inside the block; no flux crosses the block's edges,
///   so the block's sums change only by rounding.
/// - refine(): child q takes its quadrant of the parent, each parent cell as 2 x 2 equal cells
///   (the sum over the child's area is the parent cell's).
/// - coarse_quarter(): the B/2 x B/2 cells a child gives its parent, each the mean of 2 x 2 (in
///   a fixed order, so the result does not depend on where or when it is computed).
#include <array>
#include <cstdint>
#include <vector>

namespace tessera::amr {

inline constexpr int kVariables = 2;
inline constexpr double kAlpha = 0.2;

struct Cells {
  std::int64_t b = 0;       ///< cells per side
  std::vector<double> u;    ///< kVariables x b x b

  double& at(int v, std::int64_t x, std::int64_t y) { return u[static_cast<std::size_t>((v * b + x) * b + y)]; }
  double at(int v, std::int64_t x, std::int64_t y) const { return u[static_cast<std::size_t>((v * b + x) * b + y)]; }

  /// The initial field on the square of side `side` at (x0, y0): smooth and positive.
  static Cells initial(std::int64_t b, double x0, double y0, double side);
  /// `passes` diffusion passes (see above).
  void step(int passes);
  /// Child `q`'s cells (quadrant q of this block, BlockId::child's numbering).
  Cells refine(int q) const;
  /// This block's cells averaged 2 x 2: the quarter it gives its parent.
  Cells coarse_quarter() const;
  /// A parent's cells from its four children's quarters (index q = quadrant).
  static Cells assemble(const std::array<Cells, 4>& quarters);
  /// Sum of each variable's values (multiply by the cell area for its total).
  std::array<double, kVariables> sums() const;
  /// A hash of every value's bits: what the run's fingerprint combines.
  std::uint64_t hash() const;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(b, u);
  }
};

}  // namespace tessera::amr
