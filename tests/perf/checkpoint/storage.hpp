#pragma once
// The in-process measurements of tessera-bench-checkpoint: checkpoint writes and restarts of one
// collection, each against dd-style writes and reads of the same bytes in the same run
// (bench_checkpoint.cpp says what is measured and what is left out).
#include "block.hpp"

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::bench::checkpoint {

struct Setup {
  MPI_Comm comm = MPI_COMM_NULL;  ///< the application's communicator, every Context's app_comm
  int rank = 0;
  int ranks = 1;
  std::string program;                    ///< argv[0]: a restart must name the program that wrote
  std::vector<std::string> tessera_args;  ///< --tessera_ flags from the command line, for every Context
  std::filesystem::path work;             ///< this run's own directory, removed at the end
  std::uint64_t elements = 256;
  std::uint64_t values = 0;  ///< per element
  int trials = 3;
  int warmup = 1;  ///< untimed rounds first (both sides alike): see bench_checkpoint.cpp

  std::uint64_t bytes() const { return elements * values * sizeof(std::uint64_t); }
  std::filesystem::path checkpoint_dir() const { return work / "checkpoint"; }
  std::filesystem::path raw_file(int r) const { return work / ("raw." + std::to_string(r) + ".bin"); }
};

/// Wall seconds of each trial, the slowest rank's (every rank starts after a barrier).
struct Pair {
  std::vector<double> checkpoint_s;
  std::vector<double> raw_s;
  std::vector<double> memory_s;   ///< reads only: raw_read_to_memory (raw_io.hpp), for reference
  std::vector<double> context_s;  ///< restarts only: the part until the Context is constructed
                                  ///< (manifest, checksum and reading); the rest is decoding
};

struct Writes {
  Pair seconds;
  Tally written;                        ///< every rank's elements, summed
  std::uint64_t checkpoint_file_bytes = 0;  ///< the checkpoint directory (rank files, app.bin, manifest)
  double context_start_s = 0.0;         ///< a Context without restart, for reference (slowest rank)
};

/// Collective: creates the collection in a Context, then `warmup` + `trials` times writes a
/// checkpoint of it and the same bytes dd-style (the order alternates between rounds). The last
/// trial's files stay for measure_reads.
Writes measure_writes(const Setup& setup);

struct Reads {
  Pair hot;
  Pair cold;
  double hot_resident = 1.0;   ///< least fraction of all the files' pages cached before a hot read
  double cold_resident = 0.0;  ///< most still cached after a drop, before a cold read
  Tally restored;              ///< every rank's restored elements, summed, from the last restart
  bool all_verified = true;    ///< every restart: restarted, exact values, same checksum and count
};

/// Collective: `warmup` + `trials` times restarts from the checkpoint in a fresh Context and reads
/// the raw files (dd-style, and into memory), first hot (in the page cache), then cold (every file
/// dropped from it), checking every restored value against `written`.
Reads measure_reads(const Setup& setup, const Tally& written);

/// Single-core CRC-32C throughput (ISA-L, as the checkpoint uses it) over `bytes` bytes, MB/s.
double checksum_mb_per_s(std::uint64_t bytes);

/// The largest `seconds` over the ranks of `comm`.
double slowest(MPI_Comm comm, double seconds);

}  // namespace tessera::bench::checkpoint
