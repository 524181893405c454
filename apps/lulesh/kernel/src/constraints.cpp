/// The element half of a cycle after the gradient exchange (the rest of the original's
/// LagrangeElements and CalcTimeConstraintsForElems): viscosity, the qstop check, the EOS,
/// the new relative volumes, and the Courant and hydro bounds on the next time step.
#include "constants.hpp"
#include "tessera/lulesh/domain.hpp"

#include <cmath>

namespace tessera::lulesh {

using namespace detail;

void Domain::update_elements() {
  if (fault_ != Fault::none || num_elem_ == 0) return;
  calc_monotonic_q();
  // Excessive viscosity stops the run. The original tests q before the EOS updates it, that is
  // the previous cycle's q; so does this.
  for (Index i = 0; i < num_elem_; ++i) {
    if (q_[i] > kQStop) {
      fault_ = Fault::qstop;
      return;
    }
  }
  apply_material_properties();
  if (fault_ != Fault::none) return;
  for (Index i = 0; i < num_elem_; ++i) {
    Real v = vnew_[i];
    if (std::fabs(v - Real(1.0)) < kVCut) v = Real(1.0);
    v_[i] = v;
  }
  calc_time_constraints();
}

void Domain::calc_time_constraints() {
  dtcourant_ = 1.0e+20;
  dthydro_ = 1.0e+20;
  const Real qqc2 = Real(64.0) * kQqc * kQqc;
  for (const auto& region : reg_elem_list_) {
    // Courant: the sound (and viscous) signal crossing the element's characteristic length.
    Real dtcourant = dtcourant_;
    bool courant_found = false;
    for (const Index e : region) {
      Real dtf = ss_[e] * ss_[e];
      if (vdov_[e] < Real(0.)) dtf = dtf + qqc2 * arealg_[e] * arealg_[e] * vdov_[e] * vdov_[e];
      dtf = std::sqrt(dtf);
      dtf = arealg_[e] / dtf;
      if (vdov_[e] != Real(0.) && dtf < dtcourant) {
        dtcourant = dtf;
        courant_found = true;
      }
    }
    if (courant_found) dtcourant_ = dtcourant;

    // hydro: at most dvovmax relative volume change per step
    Real dthydro = dthydro_;
    bool hydro_found = false;
    for (const Index e : region) {
      if (vdov_[e] != Real(0.)) {
        const Real dtdvov = kDvovMax / (std::fabs(vdov_[e]) + Real(1.e-20));
        if (dthydro > dtdvov) {
          dthydro = dtdvov;
          hydro_found = true;
        }
      }
    }
    if (hydro_found) dthydro_ = dthydro;
  }
}

}  // namespace tessera::lulesh
