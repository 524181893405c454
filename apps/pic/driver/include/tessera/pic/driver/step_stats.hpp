#pragma once
/// Per-step statistics of the particle update across ranks, gathered on rank 0.
///
/// Each step every rank contributes its particle-update time (wall and thread CPU, seconds) and the
/// number of particles it moved. Rank 0 keeps, per step, the slowest and average rank and the
/// imbalance I = max / avg - 1 of two loads: thread CPU time (the measured load, unaffected by
/// ranks sharing a core) and particles moved (the deterministic load the mover's cost follows).
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "tessera/pic/timing.hpp"

namespace tessera::pic::driver {

/// I = max / avg - 1 of per-rank loads; 0 when every load is 0.
double imbalance(std::span<const double> loads);

/// One rank's share of one step.
struct RankSample {
  UpdateTime update;            ///< particle-update time of everything this rank moved
  std::uint64_t particles = 0;  ///< particles this rank moved
};

/// One step, over all ranks.
struct StepRecord {
  std::int64_t step = 0;            ///< 1-based
  double max_wall_s = 0.0;          ///< slowest rank's update, wall clock
  double avg_wall_s = 0.0;
  double max_cpu_s = 0.0;           ///< slowest rank's update, thread CPU time
  double avg_cpu_s = 0.0;
  double imbalance = 0.0;           ///< I of thread CPU time
  double particle_imbalance = 0.0;  ///< I of particles moved
  double elapsed_s = 0.0;           ///< rank 0's wall time from the recorder's creation to this step's record
};

/// Builds a StepRecord from every rank's sample (index = rank).
StepRecord combine(std::int64_t step, std::span<const RankSample> samples);

class StepRecorder {
 public:
  /// `print_every` > 0 prints every that many steps on rank 0 (a table header first).
  StepRecorder(MPI_Comm comm, std::int64_t print_every);

  /// Collective over the communicator: gathers every rank's sample for `step` on rank 0.
  void record(std::int64_t step, const RankSample& mine);

  /// Records over `comm` from the next step on (after an elastic shrink).
  void set_comm(MPI_Comm comm);

  /// The steps recorded so far; empty except on rank 0.
  const std::vector<StepRecord>& records() const { return records_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  std::int64_t print_every_;
  std::vector<RankSample> gathered_;
  std::vector<StepRecord> records_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace tessera::pic::driver
