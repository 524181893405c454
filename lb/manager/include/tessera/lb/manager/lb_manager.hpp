#pragma once
/// The LB manager: at the end of a phase, decides whether to balance, runs the strategy on the
/// live backend and hands its plan to the collections' migration.
///
/// Per phase p (the phase just ended), the strategy is, in order of precedence:
///   1. the one requested from code with request() since the last phase end;
///   2. the --tessera_lb_file schedule's entry for p (lb/schedule.hpp);
///   3. --tessera_lb_name with --tessera_lb_args when p % --tessera_lb_interval == 0, or, with
///      --tessera_lb_interval=auto (or an `auto` schedule line), when the imbalance since the last
///      balancing has cost more than it (lb/auto_interval.hpp: one allreduce per phase; rank 0 logs
///      each decision and its reason at --tessera_log_level=info).
/// Balancing then:
///   - builds this rank's LB input from the PhaseRecord exactly as LB data output writes it
///     (lb_data_output.hpp: elements with their loads, the rank's own time as one non-migratable
///     object, communication edges), keeping the objects still on this rank, with each load
///     predicted by the load model of --tessera_lb_model (lb/load_model.hpp) from the object's
///     history of counted loads (what set_load_model's function makes of each measured load; the
///     measured load itself by default). Every phase end records the history, balanced or not, and
///     a migrating object's history goes with it to its new rank. With the default, persistence,
///     the last phase's load predicts the next, so a replay of the dumped phase in lbsim sees
///     exactly what the live strategy saw;
///   - runs the strategy collectively on the LiveBackend;
///   - migrates this rank's share of the plan and waits until every element has arrived;
///   - reduces the statistics (balance_report.hpp) with one allreduce, prints the line on rank 0
///     and appends the JSON line to --tessera_lb_stats_file.
/// Errors: request() with an unknown strategy or argument throws tessera::Error before anything
/// moves; a plan naming an object that is not an element here is fatal (a strategy bug).
#include <tessera/collections/phase.hpp>
#include <tessera/lb/manager/balance_report.hpp>
#include <tessera/lb/manager/lb_flags.hpp>
#include <tessera/lb/manager/live_backend.hpp>
#include <tessera/lb/auto_interval.hpp>
#include <tessera/lb/load_model.hpp>
#include <tessera/lb/strategy.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace tessera::lb {

/// What an object's measured load in `phase` counts as (seconds), before the load model predicts
/// from it; e.g. 0 for objects the application wants strategies to ignore.
using LoadModel = std::function<double(const lb::LbObject& measured, lb::PhaseId phase)>;

/// This rank's LB input for the phase of `record`, as LB data output describes it (loads as
/// measured, seconds).
lb::StrategyInput strategy_input(const collections::PhaseRecord& record);

class LbManager {
 public:
  /// Collective (creates the live backend). Reads the schedule file if the flags name one.
  LbManager(Runtime& rt, Termination& termination, collections::PhaseManager& phases, const LbFlags& flags);

  /// Balances at the next phase end with `strategy` and `args` ("key=value ..."), or with the
  /// flags' strategy when `strategy` is empty. Every rank must make the same request. Throws
  /// tessera::Error for an unknown strategy or argument, or when neither names a strategy.
  void request(std::string strategy = {}, std::string args = {});
  /// Replaces what a measured load counts as; nullptr restores the default (the measured load).
  void set_load_model(LoadModel model) { model_ = std::move(model); }

  /// Collective: balances after the phase of `record` if the flags or a request say so and
  /// returns the global report; nullopt when this phase does not balance.
  ///
  /// With `leaving` (ranks about to leave at an elastic shrink, the same on every rank) the phase
  /// always balances: the strategy that would have run (else the flags' strategy) runs with those
  /// ranks marked leaving (lb/evacuate.hpp: every migratable object moves to a staying rank, then
  /// the strategy places everything), with no split or merge; without any strategy, the
  /// evacuation alone. The report's rank loads after are over the staying ranks.
  std::optional<BalanceReport> phase_end(const collections::PhaseRecord& record, std::span<const int> leaving = {});

  /// The report of the last phase end: set when that phase balanced, empty when it did not.
  const std::optional<BalanceReport>& last_report() const { return last_report_; }
  /// Whether strategies see non-migratable objects' loads: false when the counted-load function
  /// (set_load_model) makes a fixed object of 1 s count as 0, as tessera-pic's does.
  bool counts_fixed_loads() const;
  /// Seconds spent balancing so far (strategy + migration, the slowest rank's, summed over balancings).
  double balancing_s() const { return balancing_s_; }
  /// Bytes of the objects this rank has sent away (their footprint_bytes), and this rank's own
  /// seconds migrating, summed over balancings: its measured migration rate, as LB data records it.
  double migrated_bytes() const { return migrated_bytes_; }
  double migration_seconds() const { return migration_seconds_; }
  /// This rank's share of the last plan applied (migrations off this rank).
  const lb::Plan& last_plan() const { return last_plan_; }
  /// The input the strategy saw on this rank at the last balancing (after the load model).
  const lb::StrategyInput& last_input() const { return last_input_; }
  /// How many strategy arguments this manager has parsed: only request() parses; the flags' and
  /// the schedule's strategies were parsed with the flags.
  std::int64_t argument_parses() const { return registry_.parses(); }

 private:
  struct Choice {
    lb::StrategySpec strategy;  // parsed at start-up (flags, schedule) or when requested
    std::string reason;      // why this phase balances, for the statistics line
    bool automatic = false;  // decided by the auto interval, which then learns the cost
  };
  /// Counts and records this phase's loads into the history; returns the predicted input.
  lb::StrategyInput predicted_input(const collections::PhaseRecord& record);
  std::optional<Choice> choose(const collections::PhaseRecord& record);
  std::optional<Choice> decide_automatically(const collections::PhaseRecord& record, Choice choice);
  BalanceReport balance(const collections::PhaseRecord& record, const Choice& choice, std::span<const int> leaving);
  void apply(const lb::Plan& plan);
  void publish(const BalanceReport& report) const;

  Runtime& rt_;
  collections::PhaseManager& phases_;
  const LbFlags& flags_;
  lb::Registry registry_;
  LiveBackend backend_;
  LoadModel model_;
  lb::LoadHistory history_;
  lb::StrategyInput predicted_;  // this phase's input under the load model (set in phase_end)
  std::optional<Choice> requested_;
  lb::AutoInterval auto_interval_;
  lb::Plan last_plan_;
  lb::StrategyInput last_input_;
  std::optional<BalanceReport> last_report_;
  double balancing_s_ = 0.0;
  double migrated_bytes_ = 0.0;
  double migration_seconds_ = 0.0;
};

}  // namespace tessera::lb
