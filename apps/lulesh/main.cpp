// tessera-lulesh: LULESH 2.0 with its domains as Tessera colors (apps/lulesh/README.md).
#include "tessera/lulesh/driver/options.hpp"
#include "tessera/lulesh/driver/report.hpp"
#include "tessera/lulesh/driver/run.hpp"

#include <tessera/apps/finish.hpp>
#include <tessera/apps/spmd_app.hpp>
#include <tessera/tessera.hpp>

#include <cstdio>

namespace {

int run(int argc, char** argv) {
  int rank = 0;
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // The application's flags first, so the runtime sees a restart only once they are accepted.
  const tessera::lulesh::ParseResult parsed = tessera::lulesh::parse_options(argc, argv);
  if (!parsed.options) return tessera::apps::print_parse_message(parsed.message, parsed.exit_code, rank);
  const tessera::lulesh::Options& options = *parsed.options;
  tessera::Context ctx(tessera::apps::context_arguments("tessera-lulesh", options.tessera_args), MPI_COMM_WORLD);
  if (ctx.help_shown()) return 0;
  if (rank == 0) tessera::lulesh::print_banner(options, ranks);
  try {
    const tessera::lulesh::Result result = tessera::lulesh::run(options, ctx, MPI_COMM_WORLD);
    if (rank == 0) tessera::lulesh::print_result(options, result, ranks);
  } catch (const tessera::RunError& e) {
    if (rank == 0) std::fprintf(stderr, "tessera-lulesh: %s\n", e.what());
    return 2;
  }
  return tessera::apps::finish("tessera-lulesh", ctx);
}

}  // namespace

int main(int argc, char** argv) { return tessera::apps::mpi_main(argc, argv, run); }
