#pragma once
// The affine work model of LBAF ("AffineCombination"): the work of rank r is
//   alpha x load(r) + beta x max(bytes r receives from, bytes r sends to, objects on other ranks)
//   + gamma,
// counting SendRecv edges between objects only (a recorded edge whose ends are not both objects of
// the phase is ignored). An edge recorded by several ranks counts once, as in LBAF, which keys
// communications by (sender, receiver). Loads are seconds, bytes are bytes, work is seconds.
//
// lbsim reports imbalance in work; strategies balance load (the alpha term), so with beta = gamma
// = 0 (the default) work and load agree.

#include <span>
#include <string_view>
#include <vector>

#include "tessera/lb/model.hpp"

namespace tessera::lbsim {

struct WorkModel {
  double alpha = 1.0;
  double beta = 0.0;   // seconds per byte
  double gamma = 0.0;  // seconds

  // "alpha=1 beta=0 gamma=0", any subset. Throws InputError naming the pair.
  static WorkModel parse(std::string_view text);

  // Work of every rank of `ranks` (indexed by rank) with the objects where they are.
  std::vector<double> rank_work(std::span<const lb::StrategyInput> ranks) const;
};

}  // namespace tessera::lbsim
