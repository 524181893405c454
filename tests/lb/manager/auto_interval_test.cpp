// --tessera_lb_interval=auto's rule (auto_interval.hpp) on synthetic rank loads: exact decisions.
#include <tessera/lb/auto_interval.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace tessera::lb {
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
  // I = 0.2 in phases 0 and 1, then I = 0.04 for 48 phases (under the 5 % tolerance) with a spike
  // to 0.5 at phase 30 that does not persist: one balancing, after phase 1.
  std::vector<double> max_loads(50, 1.04);
  max_loads[0] = max_loads[1] = 1.2;
  max_loads[30] = 1.5;
  EXPECT_EQ(balanced_phases(max_loads, 1.0, 0.01), std::vector<int>({1}));
}

TEST(AutoInterval, LinearDriftBalancesAtTheBreakEvenPeriod) {
  // The imbalance above the tolerance grows by r = 0.01 s per phase (load 1 + 0.05 + r k on the
  // busiest rank, k phases after a balancing); a balancing costs C = 0.105 s. A phase counts what it
  // and the one before both lost, r (k - 1) from k = 2, so the rule fires once r k (k - 1) / 2 > C:
  // at k = 6 (0.10 is not more than C, 0.15 is), every 6 phases.
  AutoInterval rule;
  std::vector<int> out;
  int k = 0;
  for (int p = 0; p < 30; ++p) {
    const double max_load = 1.0 + AutoInterval::kTolerance + 0.01 * k;
    const AutoDecision d = rule.observe(max_load, 1.0);
    ++k;
    if (d.balance) {
      out.push_back(p);
      rule.balanced(0.105);
      k = 1;
    }
  }
  // Before any balancing (k = 0 at phase 0) the unmeasured cost 0 is exceeded at phase 2.
  EXPECT_EQ(out, std::vector<int>({2, 8, 14, 20, 26}));
}

TEST(AutoInterval, ReasonNamesBothSides) {
  AutoInterval rule;
  EXPECT_FALSE(rule.observe(2.0, 1.0).balance);
  const AutoDecision d = rule.observe(2.0, 1.0);
  EXPECT_TRUE(d.balance);
  EXPECT_EQ(d.reason, "auto: avoidable imbalance 950 ms over 2 phase(s) > last LB cost 0 ms");
  rule.balanced(0.5);
  const AutoDecision quiet = rule.observe(1.01, 1.0);
  EXPECT_FALSE(quiet.balance);
  EXPECT_EQ(quiet.reason, "auto: avoidable imbalance 0 ms over 1 phase(s) <= last LB cost 500 ms");
}

}  // namespace
}  // namespace tessera::lb
