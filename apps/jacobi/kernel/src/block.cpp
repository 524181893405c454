#include "tessera/jacobi/block.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tessera::jacobi {

Range part(std::int64_t n, std::int64_t parts, std::int64_t k) {
  return Range{k * n / parts, (k + 1) * n / parts};
}

Side opposite(Side side) {
  switch (side) {
    case Side::north: return Side::south;
    case Side::south: return Side::north;
    case Side::west: return Side::east;
    case Side::east: return Side::west;
  }
  return side;
}

double boundary_value(std::int64_t row, std::int64_t col) {
  if (row < 0) return 1.0;
  if (col < 0) return 0.5;
  return 0.0;
}

Block::Block(Range rows, Range cols, std::int64_t ny, std::int64_t nx)
    : rows_(rows),
      cols_(cols),
      ny_(ny),
      nx_(nx),
      u_(static_cast<std::size_t>((rows.size() + 2) * (cols.size() + 2)), 0.0),
      next_(u_.size(), 0.0) {
  fill_boundary();
}

bool Block::on_boundary(Side side) const {
  switch (side) {
    case Side::north: return rows_.begin == 0;
    case Side::south: return rows_.end == ny_;
    case Side::west: return cols_.begin == 0;
    case Side::east: return cols_.end == nx_;
  }
  return true;
}

void Block::fill_boundary() {
  const std::int64_t h = rows_.size();
  const std::int64_t w = cols_.size();
  for (std::int64_t j = 0; j < w; ++j) {
    if (on_boundary(Side::north)) u_[offset(-1, j)] = boundary_value(-1, cols_.begin + j);
    if (on_boundary(Side::south)) u_[offset(h, j)] = boundary_value(ny_, cols_.begin + j);
  }
  for (std::int64_t i = 0; i < h; ++i) {
    if (on_boundary(Side::west)) u_[offset(i, -1)] = boundary_value(rows_.begin + i, -1);
    if (on_boundary(Side::east)) u_[offset(i, w)] = boundary_value(rows_.begin + i, nx_);
  }
  // The sweep writes interior points only: next_ keeps the halos it was given here.
  next_ = u_;
}

std::vector<double> Block::edge(Side side) const {
  const std::int64_t h = rows_.size();
  const std::int64_t w = cols_.size();
  std::vector<double> values;
  if (side == Side::north || side == Side::south) {
    const std::int64_t i = side == Side::north ? 0 : h - 1;
    values.reserve(static_cast<std::size_t>(w));
    for (std::int64_t j = 0; j < w; ++j) values.push_back(at(i, j));
  } else {
    const std::int64_t j = side == Side::west ? 0 : w - 1;
    values.reserve(static_cast<std::size_t>(h));
    for (std::int64_t i = 0; i < h; ++i) values.push_back(at(i, j));
  }
  return values;
}

void Block::set_halo(Side side, std::span<const double> values) {
  const std::int64_t h = rows_.size();
  const std::int64_t w = cols_.size();
  const bool horizontal = side == Side::north || side == Side::south;
  const std::int64_t expected = horizontal ? w : h;
  // A bug, not bad input: the driver always sends a neighbour's whole edge.
  if (static_cast<std::int64_t>(values.size()) != expected)
    throw std::logic_error("halo of " + std::to_string(values.size()) + " values for a block edge of " +
                           std::to_string(expected) + " points");
  for (std::int64_t k = 0; k < expected; ++k) {
    const double v = values[static_cast<std::size_t>(k)];
    switch (side) {
      case Side::north: u_[offset(-1, k)] = v; break;
      case Side::south: u_[offset(h, k)] = v; break;
      case Side::west: u_[offset(k, -1)] = v; break;
      case Side::east: u_[offset(k, w)] = v; break;
    }
  }
}

double Block::relax() {
  const std::int64_t h = rows_.size();
  const std::int64_t w = cols_.size();
  double change = 0.0;
  for (std::int64_t i = 0; i < h; ++i) {
    for (std::int64_t j = 0; j < w; ++j) {
      const double v = 0.25 * ((at(i - 1, j) + at(i + 1, j)) + (at(i, j - 1) + at(i, j + 1)));
      change = std::max(change, std::abs(v - at(i, j)));
      next_[offset(i, j)] = v;
    }
  }
  // Halos are refreshed before every sweep, so the swapped-in buffer's stale halos never matter
  // except on the global boundary, where both buffers hold the same fixed values.
  std::swap(u_, next_);
  return change;
}

std::uint64_t Block::fingerprint() const {
  std::uint64_t print = 0;
  for (std::int64_t i = 0; i < rows_.size(); ++i) {
    for (std::int64_t j = 0; j < cols_.size(); ++j) {
      // splitmix64's finalizer over the point's position and bits: a change anywhere shows.
      std::uint64_t z = std::bit_cast<std::uint64_t>(at(i, j)) ^
                        (static_cast<std::uint64_t>(rows_.begin + i) * 0x9e3779b97f4a7c15ull) ^
                        (static_cast<std::uint64_t>(cols_.begin + j) * 0xc2b2ae3d27d4eb4full);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      print ^= z ^ (z >> 31);
    }
  }
  return print;
}

}  // namespace tessera::jacobi
