// tessera-soak: a seeded random workload that checks itself (apps/soak/README.md).
#include "tessera/soak/driver/options.hpp"
#include "tessera/soak/driver/soak.hpp"

#include <tessera/apps/finish.hpp>
#include <tessera/apps/spmd_app.hpp>
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <cstdio>

namespace {

using namespace tessera::soak;

void print(const Options& o, const Result& r) {
  const Totals& t = r.totals;
  if (!r.restarted_from.empty()) fmt::print("tessera-soak: restarted from {}\n", r.restarted_from);
  fmt::print("soak ranks={} seed={} phases={} messages={} delivered={} duplicated={} lost={} corrupted={} bytes={} "
             "migrations={} balancings={} checkpoints={} restarts={} tasks={} steals={} fingerprint={:016x} "
             "time={:.3f} s\n",
             r.ranks, o.seed, t.phases, t.messages, t.delivered, t.duplicated, t.lost, t.corrupted, t.bytes,
             t.migrations, t.balancings, t.checkpoints, t.restarts, t.tasks, t.steals, r.fingerprint, r.seconds);
  if (r.shrinks + r.expands > 0)
    fmt::print("soak shrank {} and expanded {} time(s): {} -> {} ranks\n", r.shrinks, r.expands, r.ranks, r.final_ranks);
  if (o.json)
    fmt::print(R"({{"messages":{},"delivered":{},"duplicated":{},"lost":{},"corrupted":{},"bytes":{},)"
               R"("migrations":{},"phases":{},"balancings":{},"checkpoints":{},"kills":{},"restarts":{},"hangs":{},)"
               R"("app":"soak","ranks":{},"seed":{},"broadcasts":{},"tasks":{},"steals":{},"failed_phases":{},)"
               R"("inserted":{},"destroyed":{},"fingerprint":"{:016x}","seconds":{:.3f},"final_ranks":{},"shrinks":{},"expands":{}}})"
               "\n",
               t.messages, t.delivered, t.duplicated, t.lost, t.corrupted, t.bytes, t.migrations, t.phases,
               t.balancings, t.checkpoints, t.kills, t.restarts, t.hangs, r.ranks, o.seed, t.broadcasts, t.tasks,
               t.steals, t.failed_phases, t.inserted, t.destroyed, r.fingerprint, r.seconds, r.final_ranks, r.shrinks,
               r.expands);
}

int run(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const ParseResult parsed = parse_options(argc, argv);
  if (!parsed.options) return tessera::apps::print_parse_message(parsed.message, parsed.exit_code, rank);
  const Options& options = *parsed.options;
  tessera::Context ctx(tessera::apps::context_arguments("tessera-soak", options.tessera_args), MPI_COMM_WORLD);
  if (ctx.help_shown()) return 0;
  Result result;
  try {
    result = run_soak(options, ctx);
  } catch (const tessera::RunError& e) {
    if (rank == 0) std::fprintf(stderr, "tessera-soak: %s\n", e.what());
    return 2;
  }
  if (result.left) return 0;  // it left the run at a shrink: the ranks that stayed report
  rank = ctx.runtime().rank();  // after an expand, MPI_COMM_WORLD's numbering is no longer the run's
  if (rank == 0) print(options, result);
  const Totals& t = result.totals;
  if (t.lost != 0 || t.duplicated != 0 || t.corrupted != 0) {
    if (rank == 0)
      std::fprintf(stderr, "tessera-soak: FAILED: %llu lost, %llu duplicated, %llu corrupted\n",
                   static_cast<unsigned long long>(t.lost), static_cast<unsigned long long>(t.duplicated),
                   static_cast<unsigned long long>(t.corrupted));
    return 1;
  }
  return tessera::apps::finish("tessera-soak", ctx);
}

}  // namespace

int main(int argc, char** argv) { return tessera::apps::mpi_main(argc, argv, run); }
