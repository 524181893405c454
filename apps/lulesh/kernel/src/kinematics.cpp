/// Element kinematics after the nodes moved: new relative volume, volume change, characteristic
/// length, strain rate (the original's CalcLagrangeElements and CalcKinematicsForElems), and the
/// velocity and position gradients the monotonic Q limiter needs
/// (CalcMonotonicQGradientsForElems).
#include "constants.hpp"
#include "geometry.hpp"
#include "tessera/lulesh/domain.hpp"

#include <cmath>

namespace tessera::lulesh {

using namespace detail;

void Domain::compute_gradients() {
  if (fault_ != Fault::none || num_elem_ == 0) return;
  calc_kinematics();
  if (fault_ != Fault::none) return;
  calc_monotonic_q_gradients();
}

void Domain::calc_kinematics() {
  const Real* __restrict x = x_.data();
  const Real* __restrict y = y_.data();
  const Real* __restrict z = z_.data();
  const Real* __restrict xd = xd_.data();
  const Real* __restrict yd = yd_.data();
  const Real* __restrict zd = zd_.data();
  const Real dt2 = Real(0.5) * deltatime_;
  bool inverted = false;
  for (Index k = 0; k < num_elem_; ++k) {
    const Index* nodes = &nodelist_[std::size_t(8) * k];
    Real xl[8], yl[8], zl[8];
    gather8(nodes, x, xl);
    gather8(nodes, y, yl);
    gather8(nodes, z, zl);
    const Real volume = element_volume(xl, yl, zl);
    const Real relative_volume = volume / volo_[k];
    vnew_[k] = relative_volume;
    delv_[k] = relative_volume - v_[k];
    arealg_[k] = characteristic_length(xl, yl, zl, volume);

    Real xdl[8], ydl[8], zdl[8];
    gather8(nodes, xd, xdl);
    gather8(nodes, yd, ydl);
    gather8(nodes, zd, zdl);
    // the gradient is taken at the half step: positions moved back by half the velocity
    for (int j = 0; j < 8; ++j) {
      xl[j] -= dt2 * xdl[j];
      yl[j] -= dt2 * ydl[j];
      zl[j] -= dt2 * zdl[j];
    }
    Real b[3][8];
    Real det_j = Real(0.0);
    shape_function_derivatives(xl, yl, zl, b, &det_j);
    Real d[3];
    velocity_gradient_diagonal(xdl, ydl, zdl, b, det_j, d);
    // The trace is the volume strain rate; the original also makes the strain deviatoric, but
    // nothing reads the deviator, so it is not stored.
    vdov_[k] = d[0] + d[1] + d[2];
    inverted |= vnew_[k] <= Real(0.0);
  }
  if (inverted) fault_ = Fault::volume;
}

void Domain::calc_monotonic_q_gradients() {
  const Real ptiny = Real(1.e-36);
  const Real* __restrict xp = x_.data();
  const Real* __restrict yp = y_.data();
  const Real* __restrict zp = z_.data();
  const Real* __restrict xdp = xd_.data();
  const Real* __restrict ydp = yd_.data();
  const Real* __restrict zdp = zd_.data();
  for (Index i = 0; i < num_elem_; ++i) {
    const Index* nodes = &nodelist_[std::size_t(8) * i];
    Real x[8], y[8], z[8], xv[8], yv[8], zv[8];
    gather8(nodes, xp, x);
    gather8(nodes, yp, y);
    gather8(nodes, zp, z);
    gather8(nodes, xdp, xv);
    gather8(nodes, ydp, yv);
    gather8(nodes, zdp, zv);

    const Real vol = volo_[i] * vnew_[i];
    const Real norm = Real(1.0) / (vol + ptiny);

    // the element's extent along its three logical directions
    const Real dxj = Real(-0.25) * ((x[0] + x[1] + x[5] + x[4]) - (x[3] + x[2] + x[6] + x[7]));
    const Real dyj = Real(-0.25) * ((y[0] + y[1] + y[5] + y[4]) - (y[3] + y[2] + y[6] + y[7]));
    const Real dzj = Real(-0.25) * ((z[0] + z[1] + z[5] + z[4]) - (z[3] + z[2] + z[6] + z[7]));
    const Real dxi = Real(0.25) * ((x[1] + x[2] + x[6] + x[5]) - (x[0] + x[3] + x[7] + x[4]));
    const Real dyi = Real(0.25) * ((y[1] + y[2] + y[6] + y[5]) - (y[0] + y[3] + y[7] + y[4]));
    const Real dzi = Real(0.25) * ((z[1] + z[2] + z[6] + z[5]) - (z[0] + z[3] + z[7] + z[4]));
    const Real dxk = Real(0.25) * ((x[4] + x[5] + x[6] + x[7]) - (x[0] + x[1] + x[2] + x[3]));
    const Real dyk = Real(0.25) * ((y[4] + y[5] + y[6] + y[7]) - (y[0] + y[1] + y[2] + y[3]));
    const Real dzk = Real(0.25) * ((z[4] + z[5] + z[6] + z[7]) - (z[0] + z[1] + z[2] + z[3]));

    // zeta: the normal is i x j
    Real ax = dyi * dzj - dzi * dyj;
    Real ay = dzi * dxj - dxi * dzj;
    Real az = dxi * dyj - dyi * dxj;
    delx_zeta_[i] = vol / std::sqrt(ax * ax + ay * ay + az * az + ptiny);
    ax *= norm;
    ay *= norm;
    az *= norm;
    Real dxv = Real(0.25) * ((xv[4] + xv[5] + xv[6] + xv[7]) - (xv[0] + xv[1] + xv[2] + xv[3]));
    Real dyv = Real(0.25) * ((yv[4] + yv[5] + yv[6] + yv[7]) - (yv[0] + yv[1] + yv[2] + yv[3]));
    Real dzv = Real(0.25) * ((zv[4] + zv[5] + zv[6] + zv[7]) - (zv[0] + zv[1] + zv[2] + zv[3]));
    delv_zeta_[i] = ax * dxv + ay * dyv + az * dzv;

    // xi: the normal is j x k
    ax = dyj * dzk - dzj * dyk;
    ay = dzj * dxk - dxj * dzk;
    az = dxj * dyk - dyj * dxk;
    delx_xi_[i] = vol / std::sqrt(ax * ax + ay * ay + az * az + ptiny);
    ax *= norm;
    ay *= norm;
    az *= norm;
    dxv = Real(0.25) * ((xv[1] + xv[2] + xv[6] + xv[5]) - (xv[0] + xv[3] + xv[7] + xv[4]));
    dyv = Real(0.25) * ((yv[1] + yv[2] + yv[6] + yv[5]) - (yv[0] + yv[3] + yv[7] + yv[4]));
    dzv = Real(0.25) * ((zv[1] + zv[2] + zv[6] + zv[5]) - (zv[0] + zv[3] + zv[7] + zv[4]));
    delv_xi_[i] = ax * dxv + ay * dyv + az * dzv;

    // eta: the normal is k x i
    ax = dyk * dzi - dzk * dyi;
    ay = dzk * dxi - dxk * dzi;
    az = dxk * dyi - dyk * dxi;
    delx_eta_[i] = vol / std::sqrt(ax * ax + ay * ay + az * az + ptiny);
    ax *= norm;
    ay *= norm;
    az *= norm;
    dxv = Real(-0.25) * ((xv[0] + xv[1] + xv[5] + xv[4]) - (xv[3] + xv[2] + xv[6] + xv[7]));
    dyv = Real(-0.25) * ((yv[0] + yv[1] + yv[5] + yv[4]) - (yv[3] + yv[2] + yv[6] + yv[7]));
    dzv = Real(-0.25) * ((zv[0] + zv[1] + zv[5] + zv[4]) - (zv[3] + zv[2] + zv[6] + zv[7]));
    delv_eta_[i] = ax * dxv + ay * dyv + az * dzv;
  }
}

}  // namespace tessera::lulesh
