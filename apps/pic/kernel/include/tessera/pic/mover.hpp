#pragma once
/// The particle mover, the hot loop of the benchmark: inline so the tile's loop over its particle
/// array compiles to straight-line code with no call per particle.
#include <cmath>
#include <cstdint>

#include "tessera/pic/particle.hpp"
#include "tessera/pic/problem.hpp"

namespace tessera::pic {

/// fmod(t, period) for an integer `period`, without the libm call in the common case.
///
/// The mover wraps t = position + displacement + L, which lies in [0, 3L) whenever the travel per
/// step is below L. There t - L is exact: t is a multiple of its ulp, which divides the integer L,
/// and |t - L| <= t. So subtracting L at most twice is exactly fmod's result, bit for bit; any
/// other t falls back to std::fmod.
inline double wrap_periodic(double t, double period) {
  if (t >= period) {
    t -= period;
  }
  if (t >= period) {
    t -= period;
  }
  return (t >= 0.0 && t < period) ? t : std::fmod(t, period);
}

/// Coulomb force between charges whose product is `charges`, at offset (dx, dy) from the source
/// charge: magnitude charges / r^2 along (dx, dy) / r.
inline void coulomb(double dx, double dy, double charges, double& fx, double& fy) {
  const double r_sq = dx * dx + dy * dy;
  const double r = std::sqrt(r_sq);
  const double f = charges / r_sq;
  fx = f * dx / r;
  fy = f * dy / r;
}

/// Advances one particle by one time step DT on a periodic grid of side `grid_size` cells: the force
/// is the Coulomb sum from the four charges at the corners of its cell (the two of column x share
/// a sign, column x + 1 has the other), then x <- fmod(x + v_x DT + a_x DT^2 / 2 + L, L), likewise
/// y, and v <- v + a DT. `grid_size` is L as a double (an integer value).
inline void move_particle(Particle& p, double grid_size) {
  const double cell_x = std::floor(p.x);
  const double cell_y = std::floor(p.y);
  const double rel_x = p.x - cell_x;
  const double rel_y = p.y - cell_y;
  const double left = p.q * column_charge(static_cast<std::int64_t>(cell_x));
  const double right = -left;

  double fx = 0.0;
  double fy = 0.0;
  double tx = 0.0;
  double ty = 0.0;
  coulomb(rel_x, rel_y, left, tx, ty);  // corner (x, y)
  fx += tx;
  fy += ty;
  coulomb(rel_x, 1.0 - rel_y, left, tx, ty);  // corner (x, y + 1)
  fx += tx;
  fy -= ty;
  coulomb(1.0 - rel_x, rel_y, right, tx, ty);  // corner (x + 1, y)
  fx -= tx;
  fy += ty;
  coulomb(1.0 - rel_x, 1.0 - rel_y, right, tx, ty);  // corner (x + 1, y + 1)
  fx -= tx;
  fy -= ty;

  const double ax = fx * kInverseMass;
  const double ay = fy * kInverseMass;
  p.x = wrap_periodic(p.x + p.vx * kTimeStep + 0.5 * ax * kTimeStep * kTimeStep + grid_size, grid_size);
  p.y = wrap_periodic(p.y + p.vy * kTimeStep + 0.5 * ay * kTimeStep * kTimeStep + grid_size, grid_size);
  p.vx += ax * kTimeStep;
  p.vy += ay * kTimeStep;
}

}  // namespace tessera::pic
