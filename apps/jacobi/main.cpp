// tessera-jacobi: the 2-D Jacobi example (apps/jacobi/README.md), plain MPI or a collection of tiles.
#include "tessera/jacobi/driver/modes.hpp"
#include "tessera/jacobi/driver/options.hpp"

#include <tessera/apps/finish.hpp>
#include <tessera/apps/spmd_app.hpp>
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <bit>
#include <cstdio>

namespace {

using namespace tessera::jacobi;

void print(const Options& o, const Result& r, int ranks) {
  const char* mode = o.mode == Mode::mpi ? "mpi" : "tiles";
  const auto bits = std::bit_cast<std::uint64_t>(r.residual);
  if (!r.restarted_from.empty())
    fmt::print("tessera-jacobi: restarted from {} after iteration {}\n", r.restarted_from, r.resumed_after);
  fmt::print("jacobi mode={} ranks={} grid={}x{} tiles={}x{} iterations={} residual={:.17g} ({:016x}) "
             "fingerprint={:016x} time={:.6f} s\n",
             mode, ranks, o.ny, o.nx, r.tile_rows, r.tile_cols, r.iterations, r.residual, bits, r.fingerprint,
             r.seconds);
  if (o.json)
    fmt::print(R"({{"app":"jacobi","mode":"{}","ranks":{},"ny":{},"nx":{},"tile_rows":{},"tile_cols":{},)"
               R"("iterations":{},"resumed_after":{},"residual":{:.17g},"residual_hex":"{:a}",)"
               R"("residual_bits":"{:016x}","fingerprint":"{:016x}","seconds":{:.6f}}})"
               "\n",
               mode, ranks, o.ny, o.nx, r.tile_rows, r.tile_cols, r.iterations, r.resumed_after, r.residual,
               r.residual, bits, r.fingerprint, r.seconds);
}

int run(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // The application's flags first: a restart reaches the runtime (which opens and verifies the
  // checkpoint as it starts) only once the application has accepted it.
  const ParseResult parsed = parse_options(argc, argv);
  if (!parsed.options) return tessera::apps::print_parse_message(parsed.message, parsed.exit_code, rank);
  const Options& options = *parsed.options;
  // Tessera lives inside this MPI program: it takes its --tessera_ flags and a duplicate of the
  // communicator, and leaves MPI_COMM_WORLD to the plain MPI solver.
  tessera::Context ctx(tessera::apps::context_arguments(argc > 0 ? argv[0] : "tessera-jacobi", options.tessera_args),
                       MPI_COMM_WORLD);
  if (ctx.help_shown()) return 0;
  try {
    const Result result = options.mode == Mode::mpi ? run_mpi(options, MPI_COMM_WORLD) : run_tiles(options, ctx);
    if (rank == 0) print(options, result, ctx.runtime().size());
  } catch (const tessera::RunError& e) {
    if (rank == 0) std::fprintf(stderr, "tessera-jacobi: %s\n", e.what());
    return 2;
  }
  return tessera::apps::finish("tessera-jacobi", ctx);
}

}  // namespace

int main(int argc, char** argv) { return tessera::apps::mpi_main(argc, argv, run); }
