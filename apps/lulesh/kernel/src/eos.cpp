/// The material update of one cycle: relative volumes bounded for the EOS, then per region the
/// energy, pressure, viscosity and sound speed (the original's ApplyMaterialPropertiesForElems,
/// EvalEOSForElems, CalcEnergyForElems, CalcPressureForElems, CalcSoundSpeedForElems).
///
/// The expensive regions evaluate the EOS several times (`rep`) to model load imbalance; every
/// repetition recomputes the same values from the same inputs, as in the original.
#include "constants.hpp"
#include "tessera/lulesh/domain.hpp"

#include <cmath>

namespace tessera::lulesh {

using namespace detail;

namespace {

/// Pressure of a gamma-law gas (gamma = 5/3) from energy and compression, with its cutoffs.
inline void calc_pressure(Real* p_new, Real* bvc, Real* pbvc, const Real* e_old, const Real* compression,
                          const Real* vnewc, Real pmin, Real p_cut, Real eosvmax, std::int32_t length,
                          const std::int32_t* list) {
  for (std::int32_t i = 0; i < length; ++i) {
    const Real c1s = Real(2.0) / Real(3.0);
    bvc[i] = c1s * (compression[i] + Real(1.));
    pbvc[i] = c1s;
  }
  for (std::int32_t i = 0; i < length; ++i) {
    const std::int32_t e = list[i];
    p_new[i] = bvc[i] * e_old[i];
    if (std::fabs(p_new[i]) < p_cut) p_new[i] = Real(0.0);
    if (vnewc[e] >= eosvmax) p_new[i] = Real(0.0);
    if (p_new[i] < pmin) p_new[i] = pmin;
  }
}

/// Sound speed squared term shared by the viscosity and sound-speed updates, floored as the
/// original floors it before the square root.
inline Real sound_speed(Real pbvc, Real e, Real v2, Real bvc, Real p, Real rho0) {
  Real ssc = (pbvc * e + v2 * bvc * p) / rho0;
  if (ssc <= Real(.1111111e-36)) {
    ssc = Real(.3333333e-18);
  } else {
    ssc = std::sqrt(ssc);
  }
  return ssc;
}

}  // namespace

void Domain::apply_material_properties() {
  if (num_elem_ == 0) return;
  const Real eosvmin = kEosVMin;
  const Real eosvmax = kEosVMax;
  Real* __restrict vnewc = vnewc_.data();
  for (Index i = 0; i < num_elem_; ++i) {
    Real vc = vnew_[i];
    if (eosvmin != Real(0.) && vc < eosvmin) vc = eosvmin;
    if (eosvmax != Real(0.) && vc > eosvmax) vc = eosvmax;
    vnewc[i] = vc;
  }
  // The original keeps this check on the old volumes as representative of a full code.
  for (Index i = 0; i < num_elem_; ++i) {
    Real vc = v_[i];
    if (eosvmin != Real(0.) && vc < eosvmin) vc = eosvmin;
    if (eosvmax != Real(0.) && vc > eosvmax) vc = eosvmax;
    if (vc <= 0.) {
      fault_ = Fault::volume;
      return;
    }
  }
  for (Index r = 0; r < num_reg_; ++r) {
    // Region cost: the lower half cheap, the top ~5% (at least one of 5 or more) very expensive.
    int rep;
    if (r < num_reg_ / 2) rep = 1;
    else if (r < (num_reg_ - (num_reg_ + 15) / 20)) rep = 1 + cost_;
    else rep = 10 * (1 + cost_);
    eval_eos(reg_elem_list_[r], rep);
  }
}

void Domain::eval_eos(const std::vector<Index>& region, int rep) {
  const Real e_cut = kECut, p_cut = kPCut, q_cut = kQCut;
  const Real eosvmax = kEosVMax, eosvmin = kEosVMin;
  const Real pmin = kPMin, emin = kEMin, rho0 = kRefDens;
  const auto length = static_cast<Index>(region.size());
  const Index* list = region.data();
  const Real* __restrict vnewc = vnewc_.data();
  Real* __restrict e_old = e_old_.data();
  Real* __restrict delvc = delvc_.data();
  Real* __restrict p_old = p_old_.data();
  Real* __restrict q_old = q_old_.data();
  Real* __restrict compression = compression_.data();
  Real* __restrict comp_half_step = comp_half_step_.data();
  Real* __restrict qq_old = qq_old_.data();
  Real* __restrict ql_old = ql_old_.data();
  Real* __restrict work = work_.data();
  Real* __restrict p_new = p_new_.data();
  Real* __restrict e_new = e_new_.data();
  Real* __restrict q_new = q_new_.data();
  Real* __restrict bvc = bvc_.data();
  Real* __restrict pbvc = pbvc_.data();
  Real* __restrict p_half_step = p_half_step_.data();

  for (int j = 0; j < rep; ++j) {
    for (Index i = 0; i < length; ++i) {
      const Index e = list[i];
      e_old[i] = e_[e];
      delvc[i] = delv_[e];
      p_old[i] = p_[e];
      q_old[i] = q_[e];
      qq_old[i] = qq_[e];
      ql_old[i] = ql_[e];
    }
    for (Index i = 0; i < length; ++i) {
      const Index e = list[i];
      compression[i] = Real(1.) / vnewc[e] - Real(1.);
      const Real vchalf = vnewc[e] - delvc[i] * Real(.5);
      comp_half_step[i] = Real(1.) / vchalf - Real(1.);
    }
    // volumes at the EOS bounds (cannot happen after the clamp above, kept as the original)
    if (eosvmin != Real(0.)) {
      for (Index i = 0; i < length; ++i) {
        if (vnewc[list[i]] <= eosvmin) comp_half_step[i] = compression[i];
      }
    }
    if (eosvmax != Real(0.)) {
      for (Index i = 0; i < length; ++i) {
        if (vnewc[list[i]] >= eosvmax) {
          p_old[i] = Real(0.);
          compression[i] = Real(0.);
          comp_half_step[i] = Real(0.);
        }
      }
    }
    for (Index i = 0; i < length; ++i) work[i] = Real(0.);

    // ---- energy: a predictor at the half step, then the corrector (CalcEnergyForElems) ----
    for (Index i = 0; i < length; ++i) {
      e_new[i] = e_old[i] - Real(0.5) * delvc[i] * (p_old[i] + q_old[i]) + Real(0.5) * work[i];
      if (e_new[i] < emin) e_new[i] = emin;
    }
    calc_pressure(p_half_step, bvc, pbvc, e_new, comp_half_step, vnewc, pmin, p_cut, eosvmax, length, list);
    for (Index i = 0; i < length; ++i) {
      const Real vhalf = Real(1.) / (Real(1.) + comp_half_step[i]);
      if (delvc[i] > Real(0.)) {
        q_new[i] = Real(0.);
      } else {
        const Real ssc = sound_speed(pbvc[i], e_new[i], vhalf * vhalf, bvc[i], p_half_step[i], rho0);
        q_new[i] = (ssc * ql_old[i] + qq_old[i]);
      }
      e_new[i] = e_new[i] + Real(0.5) * delvc[i] *
                                (Real(3.0) * (p_old[i] + q_old[i]) - Real(4.0) * (p_half_step[i] + q_new[i]));
    }
    for (Index i = 0; i < length; ++i) {
      e_new[i] += Real(0.5) * work[i];
      if (std::fabs(e_new[i]) < e_cut) e_new[i] = Real(0.);
      if (e_new[i] < emin) e_new[i] = emin;
    }
    calc_pressure(p_new, bvc, pbvc, e_new, compression, vnewc, pmin, p_cut, eosvmax, length, list);
    for (Index i = 0; i < length; ++i) {
      const Real sixth = Real(1.0) / Real(6.0);
      const Index e = list[i];
      Real q_tilde;
      if (delvc[i] > Real(0.)) {
        q_tilde = Real(0.);
      } else {
        const Real ssc = sound_speed(pbvc[i], e_new[i], vnewc[e] * vnewc[e], bvc[i], p_new[i], rho0);
        q_tilde = (ssc * ql_old[i] + qq_old[i]);
      }
      e_new[i] = e_new[i] - (Real(7.0) * (p_old[i] + q_old[i]) - Real(8.0) * (p_half_step[i] + q_new[i]) +
                             (p_new[i] + q_tilde)) *
                                delvc[i] * sixth;
      if (std::fabs(e_new[i]) < e_cut) e_new[i] = Real(0.);
      if (e_new[i] < emin) e_new[i] = emin;
    }
    calc_pressure(p_new, bvc, pbvc, e_new, compression, vnewc, pmin, p_cut, eosvmax, length, list);
    for (Index i = 0; i < length; ++i) {
      const Index e = list[i];
      if (delvc[i] <= Real(0.)) {
        const Real ssc = sound_speed(pbvc[i], e_new[i], vnewc[e] * vnewc[e], bvc[i], p_new[i], rho0);
        q_new[i] = (ssc * ql_old[i] + qq_old[i]);
        if (std::fabs(q_new[i]) < q_cut) q_new[i] = Real(0.);
      }
    }
  }

  for (Index i = 0; i < length; ++i) {
    const Index e = list[i];
    p_[e] = p_new[i];
    e_[e] = e_new[i];
    q_[e] = q_new[i];
  }
  for (Index i = 0; i < length; ++i) {
    const Index e = list[i];
    ss_[e] = sound_speed(pbvc[i], e_new[i], vnewc[e] * vnewc[e], bvc[i], p_new[i], rho0);
  }
}

}  // namespace tessera::lulesh
