#pragma once
// Synthetic workloads for lbsim: N objects with loads from a seeded distribution, placed uniformly
// at random on the first `mapped` of P ranks. Seed 003 section V's workload is the default:
//   "objects=10000 ranks=4096 mapped=16 load=uniform:1e-5:1e-1 seed=1".
//
// Spec grammar: space-separated key=value pairs, any subset of
//   objects=N (>= 0)   ranks=P (>= 1)   mapped=M (1..P)   seed=S (>= 0)
//   load=uniform:LOW:HIGH (0 <= LOW <= HIGH, seconds)
//   load=lognormal:MEAN:VARIANCE (MEAN > 0, VARIANCE >= 0: the moments of the load itself, so
//        the underlying normal has sigma^2 = ln(1 + VARIANCE / MEAN^2), mu = ln(MEAN) - sigma^2/2)
//   hot=H:FACTOR (0 <= H <= mapped, FACTOR > 0): the objects placed on ranks 0..H-1 get FACTOR
//        times the load drawn, a hot spot (default 0:1, none)
// Object i gets vt id i (packed, migratable) and is recorded as phase 0 of its rank.

#include <cstdint>
#include <stdexcept>
#include <string_view>

#include <vector>

#include "tessera/lb/model.hpp"

#include <tessera/runtime/error.hpp>

namespace tessera::lbsim {

struct SyntheticSpec {
  enum class Distribution { uniform, lognormal };
  std::int64_t objects = 10000;
  lb::Rank ranks = 4096;
  lb::Rank mapped = 16;
  Distribution distribution = Distribution::uniform;
  double a = 1e-5;  // uniform: LOW; lognormal: MEAN (seconds)
  double b = 1e-1;  // uniform: HIGH; lognormal: VARIANCE (seconds^2)
  std::uint64_t seed = 1;
  lb::Rank hot_ranks = 0;    // ranks 0..hot_ranks-1 are the hot spot
  double hot_factor = 1.0;   // their objects' loads are multiplied by this
};

// Throws InputError naming the offending pair, e.g. "--synthetic: mapped=0: expected an integer in [1, ranks]".
SyntheticSpec parse_synthetic(std::string_view text);

// The workload as LB data: `ranks` ranks, each with phase 0 (possibly empty).
lb::LbData make_synthetic(const SyntheticSpec& spec);

// Recorded strategy inputs repeated over `ranks` ranks: copy t of recorded rank r becomes rank
// t x R + r (R = inputs.size()), its objects renumbered so that every id stays distinct; edges are
// dropped (the copies would not talk to each other), memory fields kept. Throws InputError unless
// `ranks` is a positive multiple of R.
std::vector<lb::StrategyInput> tile_inputs(const std::vector<lb::StrategyInput>& inputs, lb::Rank ranks);

}  // namespace tessera::lbsim
