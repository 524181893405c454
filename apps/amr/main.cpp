// tessera-amr: block-structured refinement around moving disks (apps/amr/README.md).
#include "tessera/amr/driver/options.hpp"
#include "tessera/amr/driver/run.hpp"

#include <tessera/apps/finish.hpp>
#include <tessera/apps/spmd_app.hpp>
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <cstdio>

namespace {

using namespace tessera::amr;

void print(const Options& o, const Result& r) {
  fmt::print("amr ranks={} steps={} stages={} refined={} coarsened={} blocks={} max_blocks={} inserted={} destroyed={} "
             "balancings={} migrations={} drift={:.3g} conserved={} fingerprint={:016x} time={:.3f} s\n",
             r.ranks, o.mesh.steps, r.stages, r.refined, r.coarsened, r.blocks, r.max_blocks, r.inserted, r.destroyed,
             r.balancings, r.migrations, r.drift, r.conserved, r.fingerprint, r.seconds);
  if (o.json)
    fmt::print(R"({{"app":"amr","ranks":{},"steps":{},"roots":{},"cells":{},"levels":{},"objects":{},"stages":{},)"
               R"("refined":{},"coarsened":{},"blocks":{},"max_blocks":{},"inserted":{},"destroyed":{},)"
               R"("dead_letters":{},"balancings":{},"migrations":{},"total":[{:.17g},{:.17g}],"drift":{:.3g},)"
               R"("conserved":{},"fingerprint":"{:016x}","seconds":{:.6f}}})"
               "\n",
               r.ranks, o.mesh.steps, o.mesh.roots, o.mesh.cells, o.mesh.max_level, o.mesh.objects, r.stages,
               r.refined, r.coarsened, r.blocks, r.max_blocks, r.inserted, r.destroyed, r.dead_letters, r.balancings,
               r.migrations, r.total[0], r.total[1], r.drift, r.conserved, r.fingerprint, r.seconds);
}

int run(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const ParseResult parsed = parse_options(argc, argv);
  if (!parsed.options) return tessera::apps::print_parse_message(parsed.message, parsed.exit_code, rank);
  const Options& options = *parsed.options;
  tessera::Context ctx(tessera::apps::context_arguments("tessera-amr", options.tessera_args), MPI_COMM_WORLD);
  if (ctx.help_shown()) return 0;
  Result result;
  try {
    result = run_amr(options, ctx);
  } catch (const tessera::RunError& e) {
    if (rank == 0) std::fprintf(stderr, "tessera-amr: %s\n", e.what());
    return 1;
  }
  if (rank == 0) print(options, result);
  if (!result.conserved || result.dead_letters != 0) {
    if (rank == 0)
      std::fprintf(stderr, "tessera-amr: FAILED: drift %.3g (at most 1e-9), %lld dead letters\n", result.drift,
                   static_cast<long long>(result.dead_letters));
    return 1;
  }
  return tessera::apps::finish("tessera-amr", ctx);
}

}  // namespace

int main(int argc, char** argv) { return tessera::apps::mpi_main(argc, argv, run); }
