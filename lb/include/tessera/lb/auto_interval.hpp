#pragma once
/// `--tessera_lb_interval=auto`: balance when the imbalance since the last balancing has cost more
/// than that balancing did.
///
/// After every phase the manager knows the rank loads the strategy would see (seconds, after the
/// load model) and reduces them to max and average with one allreduce. The phase lost
/// (max - avg) to imbalance: the ranks below the maximum waited that long. An imbalance under
/// kTolerance (I < 0.05) is taken as what measurement noise and object granularity leave after any
/// balancing, and an imbalance that does not persist into the next phase as noise (loads measured
/// on shared cores jump from phase to phase), so the avoidable cost of a phase is the smaller of
/// max - (1 + kTolerance) avg over it and over the phase before, at least 0. The
/// manager balances when the avoidable cost summed since the last balancing exceeds the measured
/// cost of that balancing (strategy + migration, slowest rank, seconds on the load clock, the
/// clock the loads themselves are measured on); so the time spent
/// balancing never exceeds the avoidable imbalance it answers. Before any balancing was measured
/// its cost is taken as one phase's average rank load (the first balancings of the PIC proxy cost
/// 0.1-5 phases here): a run that starts far out of balance (I near 1) still balances after its
/// third phase at the latest, while the few percent of imbalance that the first phases' loads
/// show on an input that does not drift (buffers growing, caches warming) no longer buy a
/// balancing that a second one must then undo.
///
/// This is a break-even ("ski rental") rule of our own. Menon et al., "Automated load balancing
/// invocation based on application characteristics" (IEEE Cluster 2012), which Charm++'s MetaLB
/// follows, fits a model of how the imbalance grows and solves for the LB period that minimizes
/// total time; the rule here needs no model of the growth, only the cost already paid, and so
/// reacts within two phases to a change in the drift. When the avoidable cost grows linearly, r per
/// phase per phase, the rule fires after T phases with r T^2 / 2 = C, which is the period
/// T = sqrt(2 C / r) that minimizes (C + r T^2 / 2) / T, the optimum of that model. While I stays
/// under kTolerance nothing is avoidable and it does not balance again; rank loads measured on a
/// shared core can be noisier than that, and then it balances again when the noise has added up
/// to one balancing's cost.
///
/// Every rank computes the same decision from the same reduced values. The rule needs no runtime, so
/// it lives in lb's core: lbsim's advisor replays it on recorded phases (tools/lbsim, `advise`).
#include <cstdint>
#include <string>

namespace tessera::lb {

struct AutoDecision {
  bool balance = false;
  std::string reason;  ///< e.g. "avoidable imbalance 1.2 ms over 7 phases > last LB cost 0.9 ms"
};

class AutoInterval {
 public:
  static constexpr double kTolerance = 0.05;

  /// Feeds one phase's reduced rank loads (seconds); returns whether to balance after it.
  AutoDecision observe(double max_load, double avg_load);
  /// Records what the balancing after the last observed phase cost (seconds on the load clock,
  /// slowest rank).
  void balanced(double cost_s);

  double avoidable_s() const { return avoidable_s_; }
  double last_cost_s() const { return last_cost_s_; }

 private:
  double last_cost_s_ = 0.0;
  bool measured_ = false;  // a balancing's cost has been measured (balanced() was called)
  double previous_lost_ = 0.0;  // the last phase's imbalance above the tolerance, seconds
  double avoidable_s_ = 0.0;
  std::int64_t phases_ = 0;  // observed since the last balancing
};

}  // namespace tessera::lb
