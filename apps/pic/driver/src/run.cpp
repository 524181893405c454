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
    // A rank that left an elastic run has nothing to report; the ranks that stayed count their hosts.
    if (summary.help_shown || summary.left) return 0;
    // A process that joined at an expand took part in the verification; its run's rank 0 reports.
    if (summary.joined) return summary.validated ? 0 : 1;
    if (summary.hosts == 0) summary.hosts = count_hosts(comm);
    if (summary.final_ranks == 0) summary.final_ranks = summary.ranks;
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
