/// The material update of one cycle: relative volumes bounded for the EOS, then per region the
/// energy, pressure, viscosity and sound speed (the original's ApplyMaterialPropertiesForElems,
/// EvalEOSForElems, CalcEnergyForElems, CalcPressureForElems, CalcSoundSpeedForElems).
///
/// The expensive regions evaluate the EOS several times (`rep`) to model load imbalance; every
/// repetition recomputes the same values from the same inputs, as in the original.
#include "constants.hpp"
#include "simd.hpp"
#include "tessera/lulesh/domain.hpp"

#include <cmath>

namespace tessera::lulesh {

using namespace detail;

namespace {

/// Pressure of a gamma-law gas (gamma = 5/3) from energy and compression, with its cutoffs;
/// sets the bulk terms `bvc` and `pbvc` the sound speed needs.
template <class T>
inline T pressure(T* bvc, T* pbvc, T e, T compression, T vnewc, Real pmin, Real p_cut, Real eosvmax) {
  const Real c1s = Real(2.0) / Real(3.0);
  *bvc = c1s * (compression + Real(1.));
  *pbvc = splat<T>(c1s);
  T p = *bvc * e;
  const T zero{};
  p = choose(abs_each(p) < splat<T>(p_cut), zero, p);
  p = choose(vnewc >= splat<T>(eosvmax), zero, p);
  p = choose(p < splat<T>(pmin), splat<T>(pmin), p);
  return p;
}

/// The relative volume the EOS sees: the new volume clamped to [kEosVMin, kEosVMax] (the
/// original's vnewc array, computed where it is used instead of stored).
template <class T>
inline T eos_volume(T vc) {
  if (kEosVMin != Real(0.)) vc = choose(vc < splat<T>(kEosVMin), splat<T>(kEosVMin), vc);
  if (kEosVMax != Real(0.)) vc = choose(vc > splat<T>(kEosVMax), splat<T>(kEosVMax), vc);
  return vc;
}

/// Sound speed squared term shared by the viscosity and sound-speed updates, floored as the
/// original floors it before the square root.
template <class T>
inline T sound_speed(T pbvc, T e, T v2, T bvc, T p, Real rho0) {
  const T ssc = (pbvc * e + v2 * bvc * p) / rho0;
  // the square root of a floored lane is computed and discarded: it cannot trap
  return choose(ssc <= splat<T>(Real(.1111111e-36)), splat<T>(Real(.3333333e-18)), sqrt_each(ssc));
}

}  // namespace

void Domain::apply_material_properties() {
  if (num_elem_ == 0) return;
  const Real eosvmin = kEosVMin;
  const Real eosvmax = kEosVMax;
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
  const Real* __restrict vnew = vnew_.data();
  Real* __restrict p_new_out = p_new_.data();
  Real* __restrict e_new_out = e_new_.data();
  Real* __restrict q_new_out = q_new_.data();
  Real* __restrict bvc_out = bvc_.data();
  Real* __restrict pbvc_out = pbvc_.data();

  // The original runs each step below over the whole region before the next, through 15
  // temporary arrays; every step is per element, so one pass per element (two at a time, in
  // registers) gives the same values. Each repetition stores its results, so none can be
  // optimised away.
  for (int j = 0; j < rep; ++j) {
    for_each_pair(length, [&](auto lanes, Index i) {
      using T = decltype(lanes);
      const T zero{};
      const T vn = eos_volume(load_at<T>(vnew, list + i));
      const T delvc = load_at<T>(delv_.data(), list + i);
      T p_old = load_at<T>(p_.data(), list + i);
      const T q_old = load_at<T>(q_.data(), list + i);
      const T qq_old = load_at<T>(qq_.data(), list + i);
      const T ql_old = load_at<T>(ql_.data(), list + i);
      T compression = Real(1.) / vn - Real(1.);
      const T vchalf = vn - delvc * Real(.5);
      T comp_half_step = Real(1.) / vchalf - Real(1.);
      // volumes at the EOS bounds (cannot happen after the clamp above, kept as the original)
      if (eosvmin != Real(0.)) comp_half_step = choose(vn <= splat<T>(eosvmin), compression, comp_half_step);
      if (eosvmax != Real(0.)) {
        const auto at_max = vn >= splat<T>(eosvmax);
        p_old = choose(at_max, zero, p_old);
        compression = choose(at_max, zero, compression);
        comp_half_step = choose(at_max, zero, comp_half_step);
      }
      const Real work = Real(0.);
      const auto expanding = delvc > zero;

      // ---- energy: a predictor at the half step, then the corrector (CalcEnergyForElems) ----
      T e_new = load_at<T>(e_.data(), list + i) - Real(0.5) * delvc * (p_old + q_old) + Real(0.5) * work;
      e_new = choose(e_new < splat<T>(emin), splat<T>(emin), e_new);
      T bvc, pbvc;
      const T p_half_step = pressure(&bvc, &pbvc, e_new, comp_half_step, vn, pmin, p_cut, eosvmax);
      const T vhalf = Real(1.) / (Real(1.) + comp_half_step);
      T q_new = choose(expanding, zero, sound_speed(pbvc, e_new, vhalf * vhalf, bvc, p_half_step, rho0) * ql_old + qq_old);
      e_new = e_new + Real(0.5) * delvc * (Real(3.0) * (p_old + q_old) - Real(4.0) * (p_half_step + q_new));
      e_new += Real(0.5) * work;
      e_new = choose(abs_each(e_new) < splat<T>(e_cut), zero, e_new);
      e_new = choose(e_new < splat<T>(emin), splat<T>(emin), e_new);

      T p_new = pressure(&bvc, &pbvc, e_new, compression, vn, pmin, p_cut, eosvmax);
      const Real sixth = Real(1.0) / Real(6.0);
      const T q_tilde = choose(expanding, zero, sound_speed(pbvc, e_new, vn * vn, bvc, p_new, rho0) * ql_old + qq_old);
      e_new = e_new -
              (Real(7.0) * (p_old + q_old) - Real(8.0) * (p_half_step + q_new) + (p_new + q_tilde)) * delvc * sixth;
      e_new = choose(abs_each(e_new) < splat<T>(e_cut), zero, e_new);
      e_new = choose(e_new < splat<T>(emin), splat<T>(emin), e_new);

      p_new = pressure(&bvc, &pbvc, e_new, compression, vn, pmin, p_cut, eosvmax);
      T q_last = sound_speed(pbvc, e_new, vn * vn, bvc, p_new, rho0) * ql_old + qq_old;
      q_last = choose(abs_each(q_last) < splat<T>(q_cut), zero, q_last);
      q_new = choose(delvc <= zero, q_last, q_new);
      store(&p_new_out[i], p_new);
      store(&e_new_out[i], e_new);
      store(&q_new_out[i], q_new);
      store(&bvc_out[i], bvc);
      store(&pbvc_out[i], pbvc);
    });
  }

  for (Index i = 0; i < length; ++i) {
    const Index e = list[i];
    p_[e] = p_new_out[i];
    e_[e] = e_new_out[i];
    q_[e] = q_new_out[i];
  }
  for (Index i = 0; i < length; ++i) {
    const Index e = list[i];
    const Real vn = eos_volume(vnew[e]);
    ss_[e] = sound_speed(pbvc_out[i], e_new_out[i], vn * vn, bvc_out[i], p_new_out[i], rho0);
  }
}

}  // namespace tessera::lulesh
