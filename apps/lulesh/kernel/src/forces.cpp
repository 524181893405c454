/// Nodal forces of one cycle: the stress integral of each element and the Flanagan-Belytschko
/// hourglass control (the original's CalcForceForNodes without its communication:
/// CalcVolumeForceForElems, IntegrateStressForElems, CalcHourglassControlForElems,
/// CalcFBHourglassForceForElems).
///
/// The stress contributions of all elements are summed into the nodes before any hourglass
/// contribution, element by element in order, as the original's serial build does: the order
/// of those additions decides the last bits of every force.
#include "constants.hpp"
#include "geometry.hpp"
#include "tessera/lulesh/domain.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::lulesh {

using namespace detail;

void Domain::compute_forces() {
  if (fault_ != Fault::none) return;
  std::fill(fx_.begin(), fx_.end(), Real(0.0));
  std::fill(fy_.begin(), fy_.end(), Real(0.0));
  std::fill(fz_.begin(), fz_.end(), Real(0.0));
  if (num_elem_ == 0) return;
  integrate_stress();
  if (fault_ != Fault::none) return;
  control_hourglass();
}

void Domain::integrate_stress() {
  const Real* __restrict x = x_.data();
  const Real* __restrict y = y_.data();
  const Real* __restrict z = z_.data();
  Real* __restrict fx = fx_.data();
  Real* __restrict fy = fy_.data();
  Real* __restrict fz = fz_.data();
  bool inverted = false;
  for (Index k = 0; k < num_elem_; ++k) {
    const Index* nodes = &nodelist_[std::size_t(8) * k];
    Real xl[8], yl[8], zl[8];
    gather8(nodes, x, xl);
    gather8(nodes, y, yl);
    gather8(nodes, z, zl);
    // The determinant of the shape-function derivatives is the element's volume: the
    // original's check for inverted elements uses it.
    Real b[3][8];
    Real determ;
    shape_function_derivatives(xl, yl, zl, b, &determ);
    inverted |= determ <= Real(0.0);
    element_node_normals(b[0], b[1], b[2], xl, yl, zl);
    // isotropic stress: sigma_xx = sigma_yy = sigma_zz = -p - q
    const Real sig = -p_[k] - q_[k];
    for (int i = 0; i < 8; ++i) {
      const Index n = nodes[i];
      fx[n] += -(sig * b[0][i]);
      fy[n] += -(sig * b[1][i]);
      fz[n] += -(sig * b[2][i]);
    }
  }
  if (inverted) fault_ = Fault::volume;
}

namespace {

// The four hourglass base vectors (one row per mode, one column per node).
constexpr Real kGamma[4][8] = {
    {1., 1., -1., -1., -1., -1., 1., 1.},
    {1., -1., -1., 1., -1., 1., 1., -1.},
    {1., -1., 1., -1., 1., -1., 1., -1.},
    {-1., 1., -1., 1., 1., -1., 1., -1.},
};

/// Hourglass force of one velocity component on the 8 nodes: project the velocities on the
/// four modes, then spread the projections back with the same modes.
inline void hourglass_force(const Real vel[8], const Real hourgam[8][4], Real coefficient, Real out[8]) {
  Real h[4];
  for (int i = 0; i < 4; ++i) {
    h[i] = hourgam[0][i] * vel[0] + hourgam[1][i] * vel[1] + hourgam[2][i] * vel[2] + hourgam[3][i] * vel[3] +
           hourgam[4][i] * vel[4] + hourgam[5][i] * vel[5] + hourgam[6][i] * vel[6] + hourgam[7][i] * vel[7];
  }
  for (int i = 0; i < 8; ++i) {
    out[i] = coefficient * (hourgam[i][0] * h[0] + hourgam[i][1] * h[1] + hourgam[i][2] * h[2] + hourgam[i][3] * h[3]);
  }
}

}  // namespace

void Domain::control_hourglass() {
  // The original computes the volume derivatives of every element into arrays and then runs the
  // hourglass loop over them; doing both per element gives the same values without the arrays.
  const Real* __restrict x = x_.data();
  const Real* __restrict y = y_.data();
  const Real* __restrict z = z_.data();
  const Real* __restrict xd = xd_.data();
  const Real* __restrict yd = yd_.data();
  const Real* __restrict zd = zd_.data();
  Real* __restrict fx = fx_.data();
  Real* __restrict fy = fy_.data();
  Real* __restrict fz = fz_.data();
  const Real hourg = kHgCoef;
  for (Index i = 0; i < num_elem_; ++i) {
    if (v_[i] <= Real(0.0)) {
      fault_ = Fault::volume;
      return;
    }
  }
  for (Index i2 = 0; i2 < num_elem_; ++i2) {
    const Index* nodes = &nodelist_[std::size_t(8) * i2];
    Real x8[8], y8[8], z8[8];
    gather8(nodes, x, x8);
    gather8(nodes, y, y8);
    gather8(nodes, z, z8);
    Real dvdx[8], dvdy[8], dvdz[8];
    volume_derivatives(dvdx, dvdy, dvdz, x8, y8, z8);
    const Real determ = volo_[i2] * v_[i2];

    const Real volinv = Real(1.0) / determ;
    Real hourgam[8][4];
    for (int i1 = 0; i1 < 4; ++i1) {
      const Real* g = kGamma[i1];
      const Real hourmodx = x8[0] * g[0] + x8[1] * g[1] + x8[2] * g[2] + x8[3] * g[3] + x8[4] * g[4] +
                            x8[5] * g[5] + x8[6] * g[6] + x8[7] * g[7];
      const Real hourmody = y8[0] * g[0] + y8[1] * g[1] + y8[2] * g[2] + y8[3] * g[3] + y8[4] * g[4] +
                            y8[5] * g[5] + y8[6] * g[6] + y8[7] * g[7];
      const Real hourmodz = z8[0] * g[0] + z8[1] * g[1] + z8[2] * g[2] + z8[3] * g[3] + z8[4] * g[4] +
                            z8[5] * g[5] + z8[6] * g[6] + z8[7] * g[7];
      for (int n = 0; n < 8; ++n) {
        hourgam[n][i1] = g[n] - volinv * (dvdx[n] * hourmodx + dvdy[n] * hourmody + dvdz[n] * hourmodz);
      }
    }

    const Real ss1 = ss_[i2];
    const Real mass1 = elem_mass_[i2];
    const Real volume13 = std::cbrt(determ);
    Real xd1[8], yd1[8], zd1[8];
    gather8(nodes, xd, xd1);
    gather8(nodes, yd, yd1);
    gather8(nodes, zd, zd1);
    const Real coefficient = -hourg * Real(0.01) * ss1 * mass1 / volume13;
    Real hgfx[8], hgfy[8], hgfz[8];
    hourglass_force(xd1, hourgam, coefficient, hgfx);
    hourglass_force(yd1, hourgam, coefficient, hgfy);
    hourglass_force(zd1, hourgam, coefficient, hgfz);
    for (int n = 0; n < 8; ++n) {
      fx[nodes[n]] += hgfx[n];
      fy[nodes[n]] += hgfy[n];
      fz[nodes[n]] += hgfz[n];
    }
  }
}

}  // namespace tessera::lulesh
