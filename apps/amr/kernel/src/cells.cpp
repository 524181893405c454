#include "tessera/amr/cells.hpp"

#include <bit>
#include <cmath>
#include <numbers>

namespace tessera::amr {

Cells Cells::initial(std::int64_t b, double x0, double y0, double side) {
  Cells c;
  c.b = b;
  c.u.assign(static_cast<std::size_t>(kVariables * b * b), 0.0);
  const double h = side / static_cast<double>(b);
  for (int v = 0; v < kVariables; ++v)
    for (std::int64_t x = 0; x < b; ++x)
      for (std::int64_t y = 0; y < b; ++y) {
        const double cx = x0 + (static_cast<double>(x) + 0.5) * h, cy = y0 + (static_cast<double>(y) + 0.5) * h;
        c.at(v, x, y) = 1.0 + 0.5 * std::sin(2.0 * std::numbers::pi * (cx + 0.3 * v)) * std::cos(2.0 * std::numbers::pi * cy);
      }
  return c;
}

void Cells::step(int passes) {
  std::vector<double> next(u.size());
  for (int pass = 0; pass < passes; ++pass) {
    for (int v = 0; v < kVariables; ++v)
      for (std::int64_t x = 0; x < b; ++x)
        for (std::int64_t y = 0; y < b; ++y) {
          const double here = at(v, x, y);
          double flux = 0.0;
          if (x > 0) flux += at(v, x - 1, y) - here;
          if (x + 1 < b) flux += at(v, x + 1, y) - here;
          if (y > 0) flux += at(v, x, y - 1) - here;
          if (y + 1 < b) flux += at(v, x, y + 1) - here;
          next[static_cast<std::size_t>((v * b + x) * b + y)] = here + kAlpha * flux;
        }
    u.swap(next);
  }
}

Cells Cells::refine(int q) const {
  Cells c;
  c.b = b;
  c.u.resize(u.size());
  const std::int64_t ox = (q / 2) * (b / 2), oy = (q % 2) * (b / 2);
  for (int v = 0; v < kVariables; ++v)
    for (std::int64_t x = 0; x < b; ++x)
      for (std::int64_t y = 0; y < b; ++y) c.at(v, x, y) = at(v, ox + x / 2, oy + y / 2);
  return c;
}

Cells Cells::coarse_quarter() const {
  Cells c;
  c.b = b / 2;
  c.u.resize(static_cast<std::size_t>(kVariables * c.b * c.b));
  for (int v = 0; v < kVariables; ++v)
    for (std::int64_t x = 0; x < c.b; ++x)
      for (std::int64_t y = 0; y < c.b; ++y)
        c.at(v, x, y) = ((at(v, 2 * x, 2 * y) + at(v, 2 * x, 2 * y + 1)) + (at(v, 2 * x + 1, 2 * y) + at(v, 2 * x + 1, 2 * y + 1))) / 4.0;
  return c;
}

Cells Cells::assemble(const std::array<Cells, 4>& quarters) {
  Cells c;
  const std::int64_t half = quarters[0].b;
  c.b = 2 * half;
  c.u.resize(static_cast<std::size_t>(kVariables * c.b * c.b));
  for (int q = 0; q < 4; ++q) {
    const std::int64_t ox = (q / 2) * half, oy = (q % 2) * half;
    for (int v = 0; v < kVariables; ++v)
      for (std::int64_t x = 0; x < half; ++x)
        for (std::int64_t y = 0; y < half; ++y) c.at(v, ox + x, oy + y) = quarters[static_cast<std::size_t>(q)].at(v, x, y);
  }
  return c;
}

std::array<double, kVariables> Cells::sums() const {
  std::array<double, kVariables> s{};
  for (int v = 0; v < kVariables; ++v)
    for (std::int64_t k = 0; k < b * b; ++k) s[static_cast<std::size_t>(v)] += u[static_cast<std::size_t>(v * b * b + k)];
  return s;
}

std::uint64_t Cells::hash() const {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ static_cast<std::uint64_t>(b);
  for (double value : u) {
    h ^= std::bit_cast<std::uint64_t>(value);
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace tessera::amr
