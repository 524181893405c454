#include <fmt/format.h>

#include <cstdio>

#include "tessera/pic/driver/collective.hpp"
#include "tessera/pic/driver/modes.hpp"
#include <tessera/runtime/error.hpp>

namespace tessera::pic::driver {

namespace {

using ModeRunner = RunSummary (*)(const Options&, MPI_Comm);

// parse_options accepts only these names, so every mode it lets through has a runner.
ModeRunner runner_for(const std::string& mode) { return mode == "amt" ? &run_amt : &run_spmd; }

// Collective: the hosts the job spans (ranks that share memory are one host).
int count_hosts(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  int leaders = local == 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &leaders, 1, MPI_INT, MPI_SUM, comm);
  return leaders;
}

void report(const RunSummary& summary, const Options& options) {
  if (options.json) {
    fmt::print("{}\n", summary_json(summary, options));
  } else {
    print_summary(summary);
  }
  std::fflush(stdout);
}

}  // namespace

int run(int argc, const char* const* argv, MPI_Comm comm, Clock::time_point started) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const ParseResult parsed = parse_options(argc, argv);
  if (!parsed.options) return apps::print_parse_message(parsed.message, parsed.exit_code, rank);
  Options options = *parsed.options;
  options.started = started;
  try {
    // Every check here and in the mode's set-up depends only on argv and the rank count, so every
    // rank throws the same error at the same point and nothing waits on a rank that left.
    check_writable(comm, "--step_log", options.step_log);
    RunSummary summary = runner_for(options.mode)(options, comm);
    if (summary.help_shown) return 0;
    summary.hosts = count_hosts(comm);
    if (rank == 0) {
      if (!options.step_log.empty()) {
        write_step_log(options.step_log, summary.per_step);
      }
      report(summary, options);
    }
    return summary.validated ? 0 : 1;
  } catch (const InputError& e) {
    if (rank == 0) {
      fmt::print(stderr, "tessera-pic: {}\n", e.what());
      std::fflush(stderr);
    }
    return 1;
  }
}

}  // namespace tessera::pic::driver
