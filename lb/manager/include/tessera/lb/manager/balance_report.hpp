#pragma once
/// What one balanced phase achieved, as the LB manager prints it on rank 0 and writes it to
/// --tessera_lb_stats_file: rank loads before and after (min, max, avg, std, I = max/avg - 1),
/// object loads (migratable objects, under the load model), the number of migrations, and the
/// seconds spent in the strategy and in migration (the slowest rank's).
///
/// The global figures come from one allreduce of every rank's mergeable summaries
/// (lb/statistics.hpp), so no rank gathers the loads of others.
#include <tessera/lb/model.hpp>
#include <tessera/lb/statistics.hpp>
#include <tessera/runtime/collectives.hpp>

#include <cstdint>
#include <string>

namespace tessera::lb {

struct BalanceReport {
  lb::PhaseId phase = 0;
  std::string strategy;
  lb::Statistics before;   ///< rank loads, seconds, as the strategy saw them
  lb::Statistics after;    ///< rank loads, seconds, with the plan applied to the same loads
  lb::Statistics objects;  ///< migratable object loads, seconds
  std::int64_t migrations = 0;
  std::int64_t splits = 0;   ///< elements split before the strategy ran (--tessera_lb_split_above)
  std::int64_t merges = 0;   ///< elements made by merging before it ran (--tessera_lb_merge_below)
  double strategy_s = 0.0;   ///< wall seconds in Strategy::run, slowest rank
  double migration_s = 0.0;  ///< wall seconds applying the plan, slowest rank
  /// Seconds of strategy and migration together on the load clock (thread CPU time with
  /// --tessera_lb_load_clock=cpu, else wall), slowest rank: the cost the auto interval weighs
  /// against imbalance measured on that same clock.
  double load_clock_cost_s = 0.0;
  std::string reason;        ///< why this phase balanced ("interval 10", "auto: ...", a schedule line)

  /// The one line rank 0 prints, e.g.
  /// "tessera lb: phase 3 GreedyLB: rank load min 1 max 16 avg 7 std 6.5 I 1.286 -> min 7 ...".
  std::string line() const;
  /// One JSON object (no newline): {"phase":3,"strategy":"GreedyLB","before":{"min":..,"max":..,
  /// "avg":..,"std":..,"imbalance":..},"after":{...},"objects":{"count":..,"min":..,"max":..,
  /// "avg":..},"migrations":..,"splits":..,"merges":..,"strategy_s":..,"migration_s":..,"reason":".."}.
  std::string json() const;
};

/// This rank's share of a report; `before`, `after` and `objects` summarize its own values.
/// Collective: returns the global report on every rank, computed with one allreduce.
BalanceReport reduce_report(Collectives& collectives, const BalanceReport& local);

}  // namespace tessera::lb
