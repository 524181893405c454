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
  for_each_pair(num_elem_, [&](auto lanes, Index k) {
    using T = decltype(lanes);
    const Index* nodes = &nodelist_[std::size_t(8) * k];
    T xl[8], yl[8], zl[8];
    gather3(nodes, x, y, z, xl, yl, zl);
    const T volume = element_volume(xl, yl, zl);
    const T relative_volume = volume / load<T>(&volo_[k]);
    store(&vnew_[k], relative_volume);
    store(&delv_[k], relative_volume - load<T>(&v_[k]));
    store(&arealg_[k], characteristic_length(xl, yl, zl, volume));

    T xdl[8], ydl[8], zdl[8];
    gather3(nodes, xd, yd, zd, xdl, ydl, zdl);
    // the gradient is taken at the half step: positions moved back by half the velocity
    for (int j = 0; j < 8; ++j) {
      xl[j] -= dt2 * xdl[j];
      yl[j] -= dt2 * ydl[j];
      zl[j] -= dt2 * zdl[j];
    }
    T b[3][8];
    T det_j{};
    shape_function_derivatives(xl, yl, zl, b, &det_j);
    T d[3];
    velocity_gradient_diagonal(xdl, ydl, zdl, b, det_j, d);
    // The trace is the volume strain rate; the original also makes the strain deviatoric, but
    // nothing reads the deviator, so it is not stored.
    store(&vdov_[k], d[0] + d[1] + d[2]);
    inverted |= any_nonpositive(relative_volume);
  });
  if (inverted) fault_ = Fault::volume;
}

namespace {

/// The velocity gradient along one logical direction (dv) and the element's extent across it
/// (dx), from the direction's face-normal pieces `a` (unnormalised) and the velocity difference.
template <class T>
inline void directional_gradient(T ax, T ay, T az, T vol, T norm, T dxv, T dyv, T dzv, T* dx, T* dv) {
  const Real ptiny = Real(1.e-36);
  *dx = vol / sqrt_each(ax * ax + ay * ay + az * az + ptiny);
  ax *= norm;
  ay *= norm;
  az *= norm;
  *dv = ax * dxv + ay * dyv + az * dzv;
}

}  // namespace

void Domain::calc_monotonic_q_gradients() {
  const Real ptiny = Real(1.e-36);
  const Real* __restrict xp = x_.data();
  const Real* __restrict yp = y_.data();
  const Real* __restrict zp = z_.data();
  const Real* __restrict xdp = xd_.data();
  const Real* __restrict ydp = yd_.data();
  const Real* __restrict zdp = zd_.data();
  for_each_pair(num_elem_, [&](auto lanes, Index i) {
    using T = decltype(lanes);
    const Index* nodes = &nodelist_[std::size_t(8) * i];
    T x[8], y[8], z[8], xv[8], yv[8], zv[8];
    gather3(nodes, xp, yp, zp, x, y, z);
    gather3(nodes, xdp, ydp, zdp, xv, yv, zv);

    const T vol = load<T>(&volo_[i]) * load<T>(&vnew_[i]);
    const T norm = Real(1.0) / (vol + ptiny);

    // the element's extent along its three logical directions
    const T dxj = Real(-0.25) * ((x[0] + x[1] + x[5] + x[4]) - (x[3] + x[2] + x[6] + x[7]));
    const T dyj = Real(-0.25) * ((y[0] + y[1] + y[5] + y[4]) - (y[3] + y[2] + y[6] + y[7]));
    const T dzj = Real(-0.25) * ((z[0] + z[1] + z[5] + z[4]) - (z[3] + z[2] + z[6] + z[7]));
    const T dxi = Real(0.25) * ((x[1] + x[2] + x[6] + x[5]) - (x[0] + x[3] + x[7] + x[4]));
    const T dyi = Real(0.25) * ((y[1] + y[2] + y[6] + y[5]) - (y[0] + y[3] + y[7] + y[4]));
    const T dzi = Real(0.25) * ((z[1] + z[2] + z[6] + z[5]) - (z[0] + z[3] + z[7] + z[4]));
    const T dxk = Real(0.25) * ((x[4] + x[5] + x[6] + x[7]) - (x[0] + x[1] + x[2] + x[3]));
    const T dyk = Real(0.25) * ((y[4] + y[5] + y[6] + y[7]) - (y[0] + y[1] + y[2] + y[3]));
    const T dzk = Real(0.25) * ((z[4] + z[5] + z[6] + z[7]) - (z[0] + z[1] + z[2] + z[3]));
    T dx, dv;

    // zeta: the normal is i x j
    directional_gradient(dyi * dzj - dzi * dyj, dzi * dxj - dxi * dzj, dxi * dyj - dyi * dxj, vol, norm,
                         Real(0.25) * ((xv[4] + xv[5] + xv[6] + xv[7]) - (xv[0] + xv[1] + xv[2] + xv[3])),
                         Real(0.25) * ((yv[4] + yv[5] + yv[6] + yv[7]) - (yv[0] + yv[1] + yv[2] + yv[3])),
                         Real(0.25) * ((zv[4] + zv[5] + zv[6] + zv[7]) - (zv[0] + zv[1] + zv[2] + zv[3])), &dx, &dv);
    store(&delx_zeta_[i], dx);
    store(&delv_zeta_[i], dv);

    // xi: the normal is j x k
    directional_gradient(dyj * dzk - dzj * dyk, dzj * dxk - dxj * dzk, dxj * dyk - dyj * dxk, vol, norm,
                         Real(0.25) * ((xv[1] + xv[2] + xv[6] + xv[5]) - (xv[0] + xv[3] + xv[7] + xv[4])),
                         Real(0.25) * ((yv[1] + yv[2] + yv[6] + yv[5]) - (yv[0] + yv[3] + yv[7] + yv[4])),
                         Real(0.25) * ((zv[1] + zv[2] + zv[6] + zv[5]) - (zv[0] + zv[3] + zv[7] + zv[4])), &dx, &dv);
    store(&delx_xi_[i], dx);
    store(&delv_xi_[i], dv);

    // eta: the normal is k x i
    directional_gradient(dyk * dzi - dzk * dyi, dzk * dxi - dxk * dzi, dxk * dyi - dyk * dxi, vol, norm,
                         Real(-0.25) * ((xv[0] + xv[1] + xv[5] + xv[4]) - (xv[3] + xv[2] + xv[6] + xv[7])),
                         Real(-0.25) * ((yv[0] + yv[1] + yv[5] + yv[4]) - (yv[3] + yv[2] + yv[6] + yv[7])),
                         Real(-0.25) * ((zv[0] + zv[1] + zv[5] + zv[4]) - (zv[3] + zv[2] + zv[6] + zv[7])), &dx, &dv);
    store(&delx_eta_[i], dx);
    store(&delv_eta_[i], dv);
  });
}

}  // namespace tessera::lulesh
