/// The time step and the nodal half of a cycle: the original's TimeIncrement, and
/// CalcAccelerationForNodes, ApplyAccelerationBoundaryConditionsForNodes, CalcVelocityForNodes
/// and CalcPositionForNodes (lulesh.cc, LagrangeNodal after the force exchange).
#include "constants.hpp"
#include "tessera/lulesh/domain.hpp"

#include <cmath>

namespace tessera::lulesh {

using namespace detail;

Real Domain::dt_bound() const {
  // The second test compares against the first's result, as the original does.
  Real bound = Real(1.0e+20);
  if (dtcourant_ < bound) bound = dtcourant_ / Real(2.0);
  if (dthydro_ < bound) bound = dthydro_ * Real(2.0) / Real(3.0);
  return bound;
}

bool Domain::finished(std::int64_t max_cycles) const { return !(time_ < stoptime_ && cycle_ < max_cycles); }

void Domain::time_increment(Real global_bound) {
  Real targetdt = stoptime_ - time_;
  if (dtfixed_ <= Real(0.0) && cycle_ != 0) {
    const Real olddt = deltatime_;
    Real newdt = global_bound;
    // damp growth: keep the step unless it grows by at least 10%, and by at most 20%
    const Real ratio = newdt / olddt;
    if (ratio >= Real(1.0)) {
      if (ratio < deltatimemultlb_) {
        newdt = olddt;
      } else if (ratio > deltatimemultub_) {
        newdt = olddt * deltatimemultub_;
      }
    }
    if (newdt > dtmax_) newdt = dtmax_;
    deltatime_ = newdt;
  }
  // avoid a tiny last step: split the remainder when it is less than 4/3 of a step
  if (targetdt > deltatime_ && targetdt < (Real(4.0) * deltatime_ / Real(3.0))) {
    targetdt = Real(2.0) * deltatime_ / Real(3.0);
  }
  if (targetdt < deltatime_) deltatime_ = targetdt;
  time_ += deltatime_;
  ++cycle_;
}

void Domain::advance_nodes() {
  if (fault_ != Fault::none) return;
  const Index n = num_node_;
  const Real dt = deltatime_;
  Real* __restrict fx = fx_.data();
  Real* __restrict fy = fy_.data();
  Real* __restrict fz = fz_.data();
  const Real* __restrict mass = nodal_mass_.data();
  // Symmetry planes: no acceleration across them. The original zeroes the acceleration there;
  // zeroing the force gives the same +0 acceleration (0 / mass), so the accelerations need no
  // arrays: the forces are spent after this stage and rebuilt from zero by the next cycle.
  for (const Index i : symm_x_) fx[i] = Real(0.0);
  for (const Index i : symm_y_) fy[i] = Real(0.0);
  for (const Index i : symm_z_) fz[i] = Real(0.0);

  Real* __restrict xd = xd_.data();
  Real* __restrict yd = yd_.data();
  Real* __restrict zd = zd_.data();
  Real* __restrict x = x_.data();
  Real* __restrict y = y_.data();
  Real* __restrict z = z_.data();
  for (Index i = 0; i < n; ++i) {
    const Real xdd = fx[i] / mass[i];
    const Real ydd = fy[i] / mass[i];
    const Real zdd = fz[i] / mass[i];
    Real xdtmp = xd[i] + xdd * dt;
    if (std::fabs(xdtmp) < kUCut) xdtmp = Real(0.0);
    xd[i] = xdtmp;
    Real ydtmp = yd[i] + ydd * dt;
    if (std::fabs(ydtmp) < kUCut) ydtmp = Real(0.0);
    yd[i] = ydtmp;
    Real zdtmp = zd[i] + zdd * dt;
    if (std::fabs(zdtmp) < kUCut) zdtmp = Real(0.0);
    zd[i] = zdtmp;
  }
  for (Index i = 0; i < n; ++i) {
    x[i] += xd[i] * dt;
    y[i] += yd[i] * dt;
    z[i] += zd[i] * dt;
  }
}

}  // namespace tessera::lulesh
