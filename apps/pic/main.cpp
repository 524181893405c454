// tessera-pic: the PIC proxy application (see driver/include/tessera/pic/driver/modes.hpp).
#include <malloc.h>
#include <mpi.h>

#include <cstdio>
#include <exception>

#include "tessera/pic/driver/modes.hpp"

#include <tessera/tessera.hpp>

int main(int argc, char** argv) {
  const auto started = tessera::pic::driver::Clock::now();  // init_s counts MPI_Init too
  // Particle buffers (departures, arrivals, grown tiles) are freed and allocated again every step.
  // With glibc's defaults the heap returns that memory to the kernel and faults it back in on the
  // next step; on this project's VM the faults made the colors' particle update 25 % slower than
  // the SPMD tile's. Both modes run with the same settings, so the comparison stays fair.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, tessera::Context::mpi_thread_level(argc, argv), &provided);
  int code = 1;
  try {
    code = tessera::pic::driver::run(argc, argv, MPI_COMM_WORLD, started);
  } catch (const std::exception& e) {
    // Past input validation, a failure on one rank would leave the others waiting in a collective.
    std::fprintf(stderr, "tessera-pic: fatal: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}
