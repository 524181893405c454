#pragma once
/// The Jacobi kernel shared by both modes of tessera-jacobi: a rectangular block of the global
/// grid with a one-point halo, and the partition that cuts the grid into blocks.
///
/// The problem: Laplace's equation on an ny x nx grid of interior points (rows, then columns)
/// with Dirichlet boundary values: 1.0 above row 0, 0.5 left of column 0, 0.0 below and right.
/// One Jacobi sweep replaces every interior value by the mean of its four neighbours, written
/// as 0.25 * ((north + south) + (west + east)) so that every block, whatever its size and
/// wherever it sits, computes each point with the same operations in the same order. That is
/// what makes the plain MPI run and the collection run bitwise identical.
///
/// No MPI here: both modes only move edges (std::vector<double>) between blocks.
#include <cstdint>
#include <span>
#include <vector>

namespace tessera::jacobi {

/// A half-open range [begin, end) of global rows or columns.
struct Range {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end - begin; }
  bool operator==(const Range&) const = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(begin, end);
  }
};

/// Part k of n points cut into `parts` contiguous ranges whose sizes differ by at most one:
/// [k*n/parts, (k+1)*n/parts). Requires 0 <= k < parts <= n, so no part is empty.
Range part(std::int64_t n, std::int64_t parts, std::int64_t k);

/// The four neighbours of a block, in the order edges are exchanged.
enum class Side : std::uint8_t { north, south, west, east };
inline constexpr Side kSides[] = {Side::north, Side::south, Side::west, Side::east};
/// The side of the neighbour that faces `side` (north <-> south, west <-> east).
Side opposite(Side side);

/// Boundary value at global point (row, col) just outside the interior (a row or column of -1,
/// ny or nx): 1.0 on the north side, 0.5 on the west, 0.0 on the south and east.
double boundary_value(std::int64_t row, std::int64_t col);

/// Rows `rows` x columns `cols` of the global ny x nx grid, with a halo of one point on each
/// side. Starts at zero inside; halos on the global boundary hold the boundary values.
class Block {
 public:
  Block() = default;
  Block(Range rows, Range cols, std::int64_t ny, std::int64_t nx);

  Range rows() const { return rows_; }
  Range cols() const { return cols_; }
  /// Value at local (i, j), -1 <= i <= rows().size(), -1 <= j <= cols().size() (halo included).
  double at(std::int64_t i, std::int64_t j) const { return u_[offset(i, j)]; }

  /// Whether `side` lies on the global boundary (no neighbour there).
  bool on_boundary(Side side) const;
  /// The interior values along `side` (a row for north/south, a column for west/east): what the
  /// neighbour on that side needs as its halo.
  std::vector<double> edge(Side side) const;
  /// Stores the neighbour's edge in the halo on `side`. Its length must match the block's
  /// (std::logic_error otherwise: a bug in the caller, not bad input).
  void set_halo(Side side, std::span<const double> values);

  /// One Jacobi sweep over the interior, using the current halos. Returns the largest
  /// |new - old| over the block's points (the residual of this sweep, in the max norm).
  double relax();

  /// XOR over the block's interior of a hash of (global row, global column, value bits). XOR
  /// is associative and commutative, so the fingerprint of the whole grid is the XOR of its
  /// blocks' fingerprints however the grid is cut: equal fingerprints mean bitwise equal fields.
  std::uint64_t fingerprint() const;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(rows_, cols_, ny_, nx_, u_, next_);
  }

 private:
  std::size_t offset(std::int64_t i, std::int64_t j) const {
    return static_cast<std::size_t>((i + 1) * (cols_.size() + 2) + (j + 1));
  }
  void fill_boundary();

  Range rows_;
  Range cols_;
  std::int64_t ny_ = 0;
  std::int64_t nx_ = 0;
  std::vector<double> u_;     // (rows + 2) x (cols + 2), row-major, halo included
  std::vector<double> next_;  // the sweep's output, swapped with u_
};

}  // namespace tessera::jacobi
