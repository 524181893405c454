#include "options.hpp"

#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <tessera/apps/cli/work_pool.hpp>

#include "tessera/connect4/minimax.hpp"

namespace tessera::connect4::app {

CommandLine parse_command_line(int argc, char** argv) {
  CLI::App cli{"tessera-connect4: the four-in-a-row computer opponent of Cederman and Tsigas (seed 002, "
               "section 35.4.1): minimax over the next moves, every node of the tree a task."};
  Options options;
  apps::WorkPoolFlags pool;
  std::string report = "text";
  cli.add_option("--position", options.position,
                 "Columns played so far, digits 1-7 from the left, first player first (Pascal Pons' notation; "
                 "empty: the empty board)")
      ->capture_default_str();
  cli.add_option("--lookahead", options.lookahead, "Moves to look ahead, in [1, 42]")->capture_default_str();
  apps::add_work_pool_flags(cli, pool);
  cli.add_option("--report", report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return {std::nullopt, cli.exit(error) == 0 ? 0 : 2};
  }
  try {
    options.board = Board::from_moves(options.position);
    check_lookahead(options.lookahead);
    options.pool = pool.choice();
    options.json = report == "json";
    return {options, 0};
  } catch (const std::exception& error) {
    std::cerr << "tessera-connect4: " << error.what() << "\n";
    return {std::nullopt, 2};
  }
}

}  // namespace tessera::connect4::app
