#include "options.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <vector>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "tessera/collections/steal/search_mode.hpp"

#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens::app {

CommandLine parse_command_line(int argc, char** argv, const collections::steal::StealFlags& steal_flags,
                               bool speaking, int ranks) {
  CLI::App cli{"tessera-nqueens: count the ways to place N non-attacking queens on an N x N "
               "board (OEIS A000170), with one task per placement of the first rows."};
  std::int32_t n = 0;
  std::optional<std::int32_t> cutoff;
  std::optional<std::int64_t> workers;
  std::string report = "text";
  std::optional<std::string> policy;
  std::vector<std::string> steal_keys;
  cli.add_option("N", n, "Board size, in [1, " + std::to_string(kMaxN) + "]")->required();
  cli.add_option("--cutoff", cutoff, "Rows placed by tasks before the serial search, in [0, N] "
                                     "(default min(3, N))");
  cli.add_option("--workers", workers, "Search with a pool of N >= 1 threads stealing from each "
                                       "other (default: sequential search)");
  cli.add_option("--policy", policy, "Deprecated: --tessera_steal_policy. Distributed search over task collections with this victim "
                                     "policy: random, lifeline or success_only (default lifeline "
                                     "when run on several ranks)");
  cli.add_option("--steal", steal_keys, "Deprecated: --tessera_steal_args. Steal keys, key=value (repeatable): " +
                                            collections::steal::steal_keys_help())
      ->allow_extra_args(false);  // one key per --steal, so a positional after it stays one
  cli.add_option("--report", report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    std::ostringstream quiet;
    return {std::nullopt, speaking ? cli.exit(error) : cli.exit(error, quiet, quiet)};
  }
  try {
    const Board board(n);  // validates N
    Options options;
    options.n = n;
    options.cutoff = cutoff.value_or(std::min(3, n));
    check_cutoff(n, options.cutoff);
    options.json = report == "json";
    if (speaking && policy)
      std::cerr << "tessera-nqueens: warning: --policy is deprecated, use --tessera_steal_policy\n";
    if (speaking && !steal_keys.empty())
      std::cerr << "tessera-nqueens: warning: --steal is deprecated, use --tessera_steal_args\n";
    const collections::steal::SearchMode mode =
        collections::steal::resolve_search_mode(workers, steal_flags, policy, steal_keys, ranks);
    options.workers = mode.pool_workers;
    options.distributed = mode.distributed;
    options.steal = mode.steal;
    return {options, 0};
  } catch (const std::exception& error) {
    if (speaking) std::cerr << "tessera-nqueens: " << error.what() << "\n";
    return {std::nullopt, 2};
  }
}

}  // namespace tessera::nqueens::app
