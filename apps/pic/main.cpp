// tessera-pic: the PIC proxy application of issue 7 (see driver/include/tessera/pic/driver/modes.hpp).
#include <mpi.h>

#include <cstdio>
#include <exception>

#include "tessera/pic/driver/modes.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 1;
  try {
    code = tessera::pic::driver::run(argc, argv, MPI_COMM_WORLD);
  } catch (const std::exception& e) {
    // Past input validation, a failure on one rank would leave the others waiting in a collective.
    std::fprintf(stderr, "tessera-pic: fatal: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}
