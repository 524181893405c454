// --tessera_lb_interval=auto's rule (auto_interval.hpp) on synthetic rank loads: exact decisions.
#include <tessera/lb/manager/auto_interval.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace tessera::lb_manager {
namespace {

// Phases (0-based) after which the rule balanced; a balancing costs `cost_s`.
std::vector<int> balanced_phases(const std::vector<double>& max_loads, double avg, double cost_s) {
  AutoInterval rule;
  std::vector<int> out;
  for (int p = 0; p < static_cast<int>(max_loads.size()); ++p) {
    if (rule.observe(max_loads[p], avg).balance) {
      out.push_back(p);
      rule.balanced(cost_s);
    }
  }
  return out;
}

TEST(AutoInterval, BalancedInputBalancesOnlyToMeasureTheCost) {
  // I = 0.2 at phase 0, then I = 0.04 for 49 phases: under the 5 % tolerance nothing is avoidable.
  std::vector<double> max_loads(50, 1.04);
  max_loads[0] = 1.2;
  EXPECT_EQ(balanced_phases(max_loads, 1.0, 0.01), std::vector<int>({0}));
}

TEST(AutoInterval, LinearDriftBalancesAtTheBreakEvenPeriod) {
  // The avoidable cost grows by r = 0.01 s per phase after each balancing (load 1 + 0.05 + r k on
  // the busiest rank, k phases after it); a balancing costs C = 0.1 s. The rule fires once
  // r k (k + 1) / 2 > C, at k = 4 (0.10 is not more than C, 0.15 is): every 5 phases.
  AutoInterval rule;
  std::vector<int> out;
  int k = 0;
  for (int p = 0; p < 30; ++p) {
    const double max_load = 1.0 + AutoInterval::kTolerance + 0.01 * k;
    const AutoDecision d = rule.observe(max_load, 1.0);
    ++k;
    if (d.balance) {
      out.push_back(p);
      rule.balanced(0.1);
      k = 1;
    }
  }
  // Phase 0 has nothing avoidable (k = 0); phase 1 has 0.01 > the unmeasured cost 0.
  EXPECT_EQ(out, std::vector<int>({1, 5, 9, 13, 17, 21, 25, 29}));
}

TEST(AutoInterval, ReasonNamesBothSides) {
  AutoInterval rule;
  const AutoDecision d = rule.observe(2.0, 1.0);
  EXPECT_TRUE(d.balance);
  EXPECT_EQ(d.reason, "auto: avoidable imbalance 950 ms over 1 phase(s) > last LB cost 0 ms");
  rule.balanced(0.5);
  const AutoDecision quiet = rule.observe(1.01, 1.0);
  EXPECT_FALSE(quiet.balance);
  EXPECT_EQ(quiet.reason, "auto: avoidable imbalance 0 ms over 1 phase(s) <= last LB cost 500 ms");
}

}  // namespace
}  // namespace tessera::lb_manager
