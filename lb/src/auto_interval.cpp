#include "tessera/lb/auto_interval.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::lb {

AutoDecision AutoInterval::observe(double max_load, double avg_load) {
  // What two consecutive phases both lost: an imbalance that does not persist is noise.
  const double lost = std::max(0.0, max_load - (1.0 + kTolerance) * avg_load);
  avoidable_s_ += std::min(lost, previous_lost_);
  previous_lost_ = lost;
  ++phases_;
  // Before a balancing has been measured, one phase's average load stands for its cost.
  const double cost_s = measured_ ? last_cost_s_ : avg_load;
  AutoDecision d;
  d.balance = avoidable_s_ > cost_s;
  d.reason = fmt::format("auto: avoidable imbalance {:.3g} ms over {} phase(s) {} {} {:.3g} ms{}", avoidable_s_ * 1e3,
                         phases_, d.balance ? ">" : "<=", measured_ ? "last LB cost" : "one phase's average load",
                         cost_s * 1e3, measured_ ? "" : " (no LB cost measured yet)");
  return d;
}

void AutoInterval::balanced(double cost_s) {
  last_cost_s_ = cost_s;
  measured_ = true;
  avoidable_s_ = 0.0;
  previous_lost_ = 0.0;
  phases_ = 0;
}

}  // namespace tessera::lb
