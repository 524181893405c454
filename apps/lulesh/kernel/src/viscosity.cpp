/// The monotonic artificial viscosity (the original's CalcMonotonicQForElems and
/// CalcMonotonicQRegionForElems): per element, limited velocity-gradient ratios along xi, eta
/// and zeta, and from them the linear and quadratic Q terms the EOS uses.
#include "constants.hpp"
#include "tessera/lulesh/domain.hpp"

#include <cstdint>

namespace tessera::lulesh {

using namespace detail;

void Domain::calc_monotonic_q() {
  for (const auto& list : reg_elem_list_) {
    if (!list.empty()) calc_monotonic_q_region(list);
  }
}

namespace {

/// The gradient beyond one face of element `self`, chosen by the face's boundary bits: the
/// neighbour's (`other`: inside the domain, or a ghost filled by the exchange), the element's
/// own on a symmetry plane, 0 on the free surface (and for flag combinations that cannot occur).
inline Real beyond(std::int32_t bits, std::int32_t symm, std::int32_t free, std::int32_t comm, const Real* delv,
                   std::int32_t self, std::int32_t other) {
  if (bits == 0 || bits == comm) return delv[other];
  if (bits == symm) return delv[self];
  (void)free;
  return Real(0.0);
}

/// The limiter phi of one direction from the gradients on both sides.
inline Real limiter(Real delvm, Real delvp, Real norm) {
  delvm = delvm * norm;
  delvp = delvp * norm;
  Real phi = Real(.5) * (delvm + delvp);
  delvm *= kMonoqLimiterMult;
  delvp *= kMonoqLimiterMult;
  if (delvm < phi) phi = delvm;
  if (delvp < phi) phi = delvp;
  if (phi < Real(0.)) phi = Real(0.);
  if (phi > kMonoqMaxSlope) phi = kMonoqMaxSlope;
  return phi;
}

}  // namespace

void Domain::calc_monotonic_q_region(const std::vector<Index>& list) {
  const Real ptiny = Real(1.e-36);
  const Real* __restrict dxi = delv_xi_.data();
  const Real* __restrict deta = delv_eta_.data();
  const Real* __restrict dzeta = delv_zeta_.data();
  const auto n = static_cast<Index>(list.size());
  for (Index i = 0; i < n; ++i) {
    const Index e = list[i];
    const std::int32_t bc = elem_bc_[e];

    Real norm = Real(1.) / (dxi[e] + ptiny);
    Real delvm = beyond(bc & kXiM, kXiMSymm, kXiMFree, kXiMComm, dxi, e, lxim_[e]);
    Real delvp = beyond(bc & kXiP, kXiPSymm, kXiPFree, kXiPComm, dxi, e, lxip_[e]);
    const Real phixi = limiter(delvm, delvp, norm);

    norm = Real(1.) / (deta[e] + ptiny);
    delvm = beyond(bc & kEtaM, kEtaMSymm, kEtaMFree, kEtaMComm, deta, e, letam_[e]);
    delvp = beyond(bc & kEtaP, kEtaPSymm, kEtaPFree, kEtaPComm, deta, e, letap_[e]);
    const Real phieta = limiter(delvm, delvp, norm);

    norm = Real(1.) / (dzeta[e] + ptiny);
    delvm = beyond(bc & kZetaM, kZetaMSymm, kZetaMFree, kZetaMComm, dzeta, e, lzetam_[e]);
    delvp = beyond(bc & kZetaP, kZetaPSymm, kZetaPFree, kZetaPComm, dzeta, e, lzetap_[e]);
    const Real phizeta = limiter(delvm, delvp, norm);

    Real qlin, qquad;
    if (vdov_[e] > Real(0.)) {  // expanding: no viscosity
      qlin = Real(0.);
      qquad = Real(0.);
    } else {
      Real delvxxi = dxi[e] * delx_xi_[e];
      Real delvxeta = deta[e] * delx_eta_[e];
      Real delvxzeta = dzeta[e] * delx_zeta_[e];
      if (delvxxi > Real(0.)) delvxxi = Real(0.);
      if (delvxeta > Real(0.)) delvxeta = Real(0.);
      if (delvxzeta > Real(0.)) delvxzeta = Real(0.);
      const Real rho = elem_mass_[e] / (volo_[e] * vnew_[e]);
      qlin = -kQlcMonoq * rho *
             (delvxxi * (Real(1.) - phixi) + delvxeta * (Real(1.) - phieta) + delvxzeta * (Real(1.) - phizeta));
      qquad = kQqcMonoq * rho *
              (delvxxi * delvxxi * (Real(1.) - phixi * phixi) + delvxeta * delvxeta * (Real(1.) - phieta * phieta) +
               delvxzeta * delvxzeta * (Real(1.) - phizeta * phizeta));
    }
    qq_[e] = qquad;
    ql_[e] = qlin;
  }
}

}  // namespace tessera::lulesh
