#pragma once
/// What one process() of a task collection did, per rank and in total.
///
/// Steal counts are the thief's: an attempt is a request sent to another rank (random, lifeline
/// or success_only); it is successful when loot answers it, failed when the victim answers "no"
/// (only `random` and the random phase of `lifeline` ever do), and otherwise still pending when
/// the collection ran dry (a lifeline or success_only request nobody could serve). A lifeline
/// activation is loot pushed along a lifeline to a quiet thief. Worker steals are inside a rank,
/// between its worker threads (`--tessera_workers` > 1).
///
/// Seconds are summed over the rank's workers: with W workers, work + steal = W x the wall time
/// of process(). cpu_seconds is the CPU time of the rank's threads during process(); it is
/// below the wall time when the rank naps or when other processes share its core.
#include <cstdint>
#include <iosfwd>
#include <vector>

namespace tessera {
class Runtime;
}

namespace tessera::collections::steal {

struct RankStats {
  std::uint64_t tasks_executed = 0;
  std::uint64_t steals_attempted = 0;
  std::uint64_t steals_successful = 0;
  std::uint64_t steals_failed = 0;
  std::uint64_t lifeline_activations = 0;
  std::uint64_t worker_steals = 0;  ///< successful steals between the rank's worker threads
  double work_seconds = 0;   ///< inside task bodies (wall time)
  double steal_seconds = 0;  ///< the rest of process(): stealing, waiting, detecting termination
  double cpu_seconds = 0;    ///< CPU time of the rank's threads in process()

  RankStats& operator+=(const RankStats& other);
};

struct IterationStats {
  std::uint32_t iteration = 0;     ///< 1 for the first process()
  double seconds = 0;              ///< wall time of process() on rank 0
  std::vector<RankStats> ranks;    ///< indexed by rank

  RankStats total() const;
};

/// Collective: every rank's `mine` combined into one IterationStats, on every rank.
IterationStats gather_stats(Runtime& rt, std::uint32_t iteration, double seconds, const RankStats& mine);

/// A short table: one line per rank and a total line.
void print_stats(std::ostream& out, const IterationStats& stats);

}  // namespace tessera::collections::steal
