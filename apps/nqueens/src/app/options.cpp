#include "options.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens::app {

namespace {

// More threads than this on one rank is a typing error, not a configuration.
constexpr std::int64_t kMaxWorkers = 4096;

}  // namespace

CommandLine parse_command_line(int argc, char** argv) {
  CLI::App cli{"tessera-nqueens: count the ways to place N non-attacking queens on an N x N "
               "board (OEIS A000170), with one task per placement of the first rows."};
  std::int32_t n = 0;
  std::optional<std::int32_t> cutoff;
  std::optional<std::int64_t> workers;
  std::string report = "text";
  cli.add_option("N", n, "Board size, in [1, " + std::to_string(kMaxN) + "]")->required();
  cli.add_option("--cutoff", cutoff, "Rows placed by tasks before the serial search, in [0, N] "
                                     "(default min(3, N))");
  cli.add_option("--workers", workers, "Search with a pool of N >= 1 threads stealing from each "
                                       "other (default: sequential search)");
  cli.add_option("--report", report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return {std::nullopt, cli.exit(error)};
  }
  try {
    const Board board(n);  // validates N
    Options options;
    options.n = n;
    options.cutoff = cutoff.value_or(std::min(3, n));
    check_cutoff(n, options.cutoff);
    if (workers && (*workers < 1 || *workers > kMaxWorkers)) {
      throw std::invalid_argument("--workers is " + std::to_string(*workers) + ": expected an integer in [1, " +
                                  std::to_string(kMaxWorkers) + "]");
    }
    options.workers = static_cast<std::size_t>(workers.value_or(0));
    options.json = report == "json";
    return {options, 0};
  } catch (const std::invalid_argument& error) {
    std::cerr << "tessera-nqueens: " << error.what() << "\n";
    return {std::nullopt, 2};
  }
}

}  // namespace tessera::nqueens::app
