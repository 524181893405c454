#pragma once
/// The result of one tessera-pic run and the ways rank 0 reports it.
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/pic/driver/options.hpp"
#include "tessera/pic/driver/step_stats.hpp"
#include "tessera/pic/driver/time_to_solution.hpp"

namespace tessera::pic::driver {

struct RunSummary {
  std::string mode;              ///< "spmd" or "amt"
  std::string lb = "none";       ///< balancer name; "none" without load balancing
  int ranks = 0;                 ///< at the start
  int final_ranks = 0;           ///< at the end: fewer after an elastic shrink, more after an expand
  int rescales = 0;              ///< elastic shrinks and expands (--tessera_elastic_plan, _control)
  bool left = false;             ///< this rank left the run at a shrink: it reports nothing
  bool joined = false;           ///< this process joined at an expand: rank 0 of the run reports
  std::vector<std::string> rescale_stages;  ///< each rescale's RescaleReport::json(), in order
  int hosts = 0;                 ///< hosts (shared-memory nodes) the ranks ran on at the end (0: not counted yet)
  std::int64_t steps = 0;
  std::uint64_t particles = 0;   ///< placed at the start
  bool validated = false;        ///< positions, count and id checksum all correct
  bool help_shown = false;       ///< a --tessera_help flag printed its text and nothing ran
  double update_max_s = 0.0;     ///< sum over steps of the slowest rank's update, wall clock
  double update_avg_s = 0.0;     ///< sum over steps of the average rank's update, wall clock
  double update_max_cpu_s = 0.0; ///< sum over steps of the slowest rank's update, thread CPU time
  double mean_imbalance = 0.0;   ///< mean over steps of I (thread CPU time)
  double mean_particle_imbalance = 0.0;  ///< mean over steps of I (particles moved)
  double lb_s = 0.0;             ///< time spent balancing and migrating
  std::uint64_t migrations = 0;  ///< objects migrated
  std::uint64_t balanced_phases = 0;  ///< phases that ran a strategy
  std::vector<std::int64_t> balanced_steps;  ///< the steps whose phase end ran a strategy
  /// Mean over balancings of I of particles moved in the step right after each (0 without any):
  /// what each balancing achieved, measured.
  double mean_imbalance_after_lb = 0.0;
  std::int64_t recuts = 0;            ///< AMT: times the colors were re-cut (--recut)
  std::int64_t splits = 0;            ///< AMT: colors split at balancings (--tessera_lb_split_above)
  std::int64_t merges = 0;            ///< AMT: colors made by merging two (--tessera_lb_merge_below)
  TimeToSolution time;           ///< init_s, total_s and the step loop's breakdown
  std::vector<StepRecord> per_step;  ///< rank 0 only
};

/// Fills the update-time and imbalance totals of `summary` from its per-step records.
void add_totals(RunSummary& summary);

/// The summary as text lines (rank 0).
void print_summary(const RunSummary& summary);

/// Particle moves per second of total_s, in millions: the figure the ParRes Kernels' PIC prints.
double rate_mparticles_per_s(const RunSummary& summary);

/// The summary as one JSON object on one line, the run's keys first, then time to solution's: total_s,
/// init_s, rate_mparticles_per_s, breakdown (an object of the Breakdown's parts, other_s, rank).
std::string summary_json(const RunSummary& summary, const Options& options);

/// Writes the per-step records as CSV. Throws InputError naming the file if it cannot be written.
void write_step_log(const std::string& path, const std::vector<StepRecord>& records);

}  // namespace tessera::pic::driver
