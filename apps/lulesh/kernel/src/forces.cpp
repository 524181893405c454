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
  for_each_pair(num_elem_, [&](auto lanes, Index k) {
    using T = decltype(lanes);
    const Index* nodes = &nodelist_[std::size_t(8) * k];
    T xl[8], yl[8], zl[8];
    gather3(nodes, x, y, z, xl, yl, zl);
    // The determinant of the shape-function derivatives is the element's volume: the
    // original's check for inverted elements uses it.
    T b[3][8];
    T determ;
    shape_function_derivatives(xl, yl, zl, b, &determ);
    inverted |= any_nonpositive(determ);
    element_node_normals(b[0], b[1], b[2], xl, yl, zl);
    // isotropic stress: sigma_xx = sigma_yy = sigma_zz = -p - q
    const T sig = -load<T>(&p_[k]) - load<T>(&q_[k]);
    T f[3][8];
    for (int i = 0; i < 8; ++i) {
      f[0][i] = -(sig * b[0][i]);
      f[1][i] = -(sig * b[1][i]);
      f[2][i] = -(sig * b[2][i]);
    }
    scatter_add(nodes, f[0], fx);
    scatter_add(nodes, f[1], fy);
    scatter_add(nodes, f[2], fz);
  });
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
template <class T>
inline void hourglass_force(const T vel[8], const T hourgam[8][4], T coefficient, T out[8]) {
  T h[4];
  for (int i = 0; i < 4; ++i) {
    h[i] = hourgam[0][i] * vel[0] + hourgam[1][i] * vel[1] + hourgam[2][i] * vel[2] + hourgam[3][i] * vel[3] +
           hourgam[4][i] * vel[4] + hourgam[5][i] * vel[5] + hourgam[6][i] * vel[6] + hourgam[7][i] * vel[7];
  }
  for (int i = 0; i < 8; ++i) {
    out[i] = coefficient * (hourgam[i][0] * h[0] + hourgam[i][1] * h[1] + hourgam[i][2] * h[2] + hourgam[i][3] * h[3]);
  }
}

/// The hourglass modes of one element (or pair) corrected by its volume derivatives: the
/// original's CalcElemVolumeDerivative and the hourgam loop of CalcFBHourglassForceForElems.
template <class T>
inline void hourglass_modes(const T x8[8], const T y8[8], const T z8[8], T volinv, T hourgam[8][4]) {
  T dvdx[8], dvdy[8], dvdz[8];
  volume_derivatives(dvdx, dvdy, dvdz, x8, y8, z8);
  for (int i1 = 0; i1 < 4; ++i1) {
    const Real* g = kGamma[i1];
    const T hourmodx = x8[0] * g[0] + x8[1] * g[1] + x8[2] * g[2] + x8[3] * g[3] + x8[4] * g[4] + x8[5] * g[5] +
                       x8[6] * g[6] + x8[7] * g[7];
    const T hourmody = y8[0] * g[0] + y8[1] * g[1] + y8[2] * g[2] + y8[3] * g[3] + y8[4] * g[4] + y8[5] * g[5] +
                       y8[6] * g[6] + y8[7] * g[7];
    const T hourmodz = z8[0] * g[0] + z8[1] * g[1] + z8[2] * g[2] + z8[3] * g[3] + z8[4] * g[4] + z8[5] * g[5] +
                       z8[6] * g[6] + z8[7] * g[7];
    for (int n = 0; n < 8; ++n) {
      hourgam[n][i1] = g[n] - volinv * (dvdx[n] * hourmodx + dvdy[n] * hourmody + dvdz[n] * hourmodz);
    }
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
  for (Index i = 0; i < num_elem_; ++i) {
    if (v_[i] <= Real(0.0)) {
      fault_ = Fault::volume;
      return;
    }
  }
  for_each_pair(num_elem_, [&](auto lanes, Index k) {
    using T = decltype(lanes);
    const Index* nodes = &nodelist_[std::size_t(8) * k];
    T x8[8], y8[8], z8[8];
    gather3(nodes, x, y, z, x8, y8, z8);
    const T determ = load<T>(&volo_[k]) * load<T>(&v_[k]);
    T hourgam[8][4];
    hourglass_modes(x8, y8, z8, Real(1.0) / determ, hourgam);

    const T volume13 = cbrt_each(determ);
    T xd1[8], yd1[8], zd1[8];
    gather3(nodes, xd, yd, zd, xd1, yd1, zd1);
    const T coefficient = -kHgCoef * Real(0.01) * load<T>(&ss_[k]) * load<T>(&elem_mass_[k]) / volume13;
    T hgf[3][8];
    hourglass_force(xd1, hourgam, coefficient, hgf[0]);
    hourglass_force(yd1, hourgam, coefficient, hgf[1]);
    hourglass_force(zd1, hourgam, coefficient, hgf[2]);
    scatter_add(nodes, hgf[0], fx);
    scatter_add(nodes, hgf[1], fy);
    scatter_add(nodes, hgf[2], fz);
  });
}

}  // namespace tessera::lulesh
