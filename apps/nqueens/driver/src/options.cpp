// tessera-nqueens's flags: the board size N and the cutoff row.
#include "options.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <tessera/apps/cli/search.hpp>
#include <tessera/apps/error.hpp>

#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens::app {

CommandLine parse_command_line(int argc, char** argv, const apps::SearchJob& job) {
  CLI::App cli{"tessera-nqueens: count the ways to place N non-attacking queens on an N x N "
               "board (OEIS A000170), with one task per placement of the first rows."};
  std::int32_t n = 0;
  std::optional<std::int32_t> cutoff;
  apps::SearchFlags search;
  cli.add_option("N", n, "Board size, in [1, " + std::to_string(kMaxN) + "]")->required();
  cli.add_option("--cutoff", cutoff, "Rows placed by tasks before the serial search, in [0, N] "
                                     "(default min(3, N))");
  apps::add_search_flags(cli, search);
  apps::add_report_flag(cli, search.report);
  return apps::parse_command_line<Options>(cli, argc, argv, kProgram, job.speaking, [&] {
    const Board board(n);  // validates N
    Options options;
    options.n = n;
    options.cutoff = cutoff.value_or(std::min(3, n));
    apps::for_flag("--cutoff", [&] { check_cutoff(n, options.cutoff); });  // before the steal flags
    static_cast<apps::SearchOptions&>(options) =
        apps::resolve_search_options(search, job, kProgram);
    return options;
  });
}

}  // namespace tessera::nqueens::app
