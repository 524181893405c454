// tessera-jacobi: the 2-D Jacobi example (apps/jacobi/README.md), plain MPI or a collection of tiles.
#include "tessera/jacobi/modes.hpp"
#include "tessera/jacobi/options.hpp"

#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <bit>
#include <cstdio>

namespace {

using namespace tessera::jacobi;

void print(const Options& o, const Result& r, int ranks) {
  const char* mode = o.mode == Mode::mpi ? "mpi" : "tiles";
  const auto bits = std::bit_cast<std::uint64_t>(r.residual);
  fmt::print("jacobi mode={} ranks={} grid={}x{} tiles={}x{} iterations={} residual={:.17g} ({:016x}) "
             "fingerprint={:016x} time={:.6f} s\n",
             mode, ranks, o.ny, o.nx, o.tile_rows, o.tile_cols, r.iterations, r.residual, bits, r.fingerprint,
             r.seconds);
  if (o.json)
    fmt::print(R"({{"app":"jacobi","mode":"{}","ranks":{},"ny":{},"nx":{},"tile_rows":{},"tile_cols":{},)"
               R"("iterations":{},"residual":{:.17g},"residual_bits":"{:016x}","fingerprint":"{:016x}","seconds":{:.6f}}})"
               "\n",
               mode, ranks, o.ny, o.nx, o.tile_rows, o.tile_cols, r.iterations, r.residual, bits, r.fingerprint,
               r.seconds);
}

int run(int argc, char** argv) {
  // Tessera lives inside this MPI program: it takes its --tessera_ flags and a duplicate of the
  // communicator, and leaves MPI_COMM_WORLD to the plain MPI solver.
  tessera::Context ctx(argc, argv, MPI_COMM_WORLD);
  const int rank = ctx.runtime().rank();
  const ParseResult parsed = parse_options(argc, argv);
  if (!parsed.options) {
    if (rank == 0) std::fprintf(parsed.exit_code ? stderr : stdout, "%s\n", parsed.message.c_str());
    return parsed.exit_code;
  }
  const Options& options = *parsed.options;
  try {
    const Result result = options.mode == Mode::mpi ? run_mpi(options, MPI_COMM_WORLD) : run_tiles(options, ctx);
    if (rank == 0) print(options, result, ctx.runtime().size());
  } catch (const RunError& e) {
    if (rank == 0) std::fprintf(stderr, "tessera-jacobi: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int code = run(argc, argv);
  MPI_Finalize();
  return code;
}
