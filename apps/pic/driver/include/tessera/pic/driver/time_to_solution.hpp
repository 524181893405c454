#pragma once
/// Time to solution of one tessera-pic run: what a user waits for, and where it went.
///
/// Every rank times its own run on the monotonic wall clock, in seconds:
///   init_s   from the start of main() (before MPI_Init) to the first step: MPI, the runtime, the
///            collection, particle placement;
///   total_s  from before the first step to the verified end (the self-check reduced on every
///            rank), the time-to-solution figure;
/// and splits its step loop into the parts of a Breakdown, each summed over steps. The report keeps
/// the largest init_s and total_s over ranks, and the breakdown of the critical rank (the one with
/// the longest particle update: in SPMD mode the exchange includes waiting), whose parts therefore add up to at most total_s;
/// `other_s` is the rest of total_s (verification, the last drain, and time between the timed
/// parts).
#include <mpi.h>

#include <chrono>

namespace tessera::pic::driver {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now on the monotonic clock.
double seconds_since(Clock::time_point start);

/// One rank's step loop, seconds summed over steps (wall clock).
struct Breakdown {
  double update_s = 0.0;       ///< the particle mover (colors' or the SPMD tile's)
  double exchange_s = 0.0;     ///< taking departures, sending, receiving and accepting particles
                               ///< (SPMD: the neighbour exchange, its waiting included)
  double wait_s = 0.0;         ///< AMT: the step's broadcast and drain minus the handlers' work:
                               ///< waiting for other ranks and the scheduler's own time
  double spmd_s = 0.0;         ///< the per-step SPMD region: census allreduce, step statistics
  double phase_close_s = 0.0;  ///< AMT: phase end: quiescence, phase record, LB decision and, when
                               ///< it balances, statistics, strategy and migration
  double lb_strategy_s = 0.0;   ///< the part of phase_close_s in the LB strategy
  double lb_migration_s = 0.0;  ///< the part of phase_close_s migrating colors
  double checkpoint_s = 0.0;    ///< AMT: writing checkpoints (--checkpoint_every), fsync included
  double recut_s = 0.0;         ///< AMT: re-cutting colors (--recut): the per-step check, and when
                                ///< it re-cuts the column and row counts, reshaping and sending

  /// The top-level parts (lb_* are inside phase_close_s).
  double sum() const { return update_s + exchange_s + wait_s + spmd_s + phase_close_s + checkpoint_s + recut_s; }
  /// Particle work: what a perfect balancer would spread evenly.
  double work() const { return update_s + exchange_s; }
};

struct TimeToSolution {
  double init_s = 0.0;    ///< max over ranks
  double total_s = 0.0;   ///< max over ranks
  double total_cpu_s = 0.0;  ///< the same span on the thread CPU clock, max over ranks: time to
                             ///< solution where ranks share cores (waiting that sleeps costs none)
  Breakdown breakdown;    ///< of the critical rank
  int breakdown_rank = 0;
  double other_s() const { return total_s - breakdown.sum(); }
};

/// Collective over `comm`: combines every rank's figures; the result is valid on every rank.
TimeToSolution reduce_time_to_solution(MPI_Comm comm, double init_s, double total_s, double total_cpu_s,
                                       const Breakdown& mine);

/// Thread CPU seconds of the calling thread.
double thread_cpu_seconds();

}  // namespace tessera::pic::driver
