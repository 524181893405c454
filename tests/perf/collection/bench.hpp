#pragma once
// The two measurements of tessera-bench-collection, each against raw MPI or the runtime in the
// same run, on ranks 0 and 1 (other ranks idle through the collectives).
#include <tessera/runtime.hpp>

#include <cstddef>

namespace tessera::bench {

/// One-way latency in microseconds: round trip / 2, best over `trials` interleaved trials.
struct Latency {
  double element_us = 0.0;  ///< element message (8-byte argument) between elements on ranks 0 and 1
  double rank_us = 0.0;     ///< plain runtime message (the same argument) between ranks 0 and 1
};
Latency measure_latency(Runtime& rt, int round_trips, int trials);

/// Throughput of moving `elements` elements of `bytes` bytes of state from one rank to the
/// other, against MPI_Send/MPI_Recv of as many messages of the same size, each from and into its
/// own buffer. Best over `trials` trials, each moving the elements there and back (two timed
/// moves), after one untimed move there and back.
struct Migration {
  std::size_t bytes = 0;
  double migrations_per_s = 0.0;
  double migration_mb_per_s = 0.0;  ///< 1 MB = 1e6 bytes of element state
  double mpi_mb_per_s = 0.0;        ///< a buffer per message, as the elements each have their own
  double mpi_one_buffer_mb_per_s = 0.0;  ///< one buffer sent every time (stays in cache)
};
Migration measure_migration(Runtime& rt, MPI_Comm mpi_comm, std::size_t bytes, int elements, int trials);

}  // namespace tessera::bench
