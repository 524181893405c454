#pragma once
// Part 3 of tessera-bench-checkpoint: the PIC main job with checkpoints, run in this process
// through tessera-pic's driver library (bench_checkpoint.cpp says why not a nested mpirun).
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::bench::checkpoint {

struct PicPause {
  std::vector<std::string> args;  ///< tessera-pic's command line, as run
  double total_s = 0.0;           ///< time to solution (tessera-pic's total_s)
  double checkpoint_s = 0.0;      ///< its breakdown.checkpoint_s (the critical rank's)
  std::int64_t checkpoints = 0;   ///< checkpoint directories written
  std::uint64_t checkpoint_bytes = 0;  ///< all of them together
  bool validated = false;
  double pause_fraction() const { return total_s > 0.0 ? checkpoint_s / total_s : 0.0; }
};

/// Several runs of the same (checkpoint times vary with the disk from run to run).
struct PicSeries {
  std::vector<PicPause> runs;
  /// Medians over the runs; pause_fraction is the median of each run's own fraction.
  double pause_fraction() const;
  double checkpoint_s() const;
  double total_s() const;
  bool validated() const;
};

/// Collective: `trials` runs of run_pic, each into its own directory under `dir`, which goes
/// once its bytes are counted.
PicSeries run_pic_series(MPI_Comm comm, const std::filesystem::path& dir, std::int64_t every,
                         const std::vector<std::string>& extra, int trials);

/// Collective over `comm`: runs tessera-pic --mode=amt with TemperedLB at interval auto and
/// --checkpoint_every `every` into `dir` (every checkpoint kept, so their bytes can be counted),
/// plus `extra` (e.g. a smaller input). Throws std::runtime_error on bad arguments.
PicPause run_pic(MPI_Comm comm, const std::filesystem::path& dir, std::int64_t every,
                 const std::vector<std::string>& extra);

}  // namespace tessera::bench::checkpoint
