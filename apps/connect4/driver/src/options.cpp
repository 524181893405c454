// tessera-connect4's flags: the position and the lookahead.
#include "options.hpp"

#include <CLI/CLI.hpp>
#include <tessera/apps/cli/work_pool.hpp>
#include <tessera/apps/error.hpp>

#include "tessera/connect4/minimax.hpp"

namespace tessera::connect4::app {

apps::CommandLine<Options> parse_command_line(int argc, char** argv) {
  CLI::App cli{"tessera-connect4: the four-in-a-row computer opponent of Cederman and Tsigas (seed 002, "
               "section 35.4.1): minimax over the next moves, every node of the tree a task."};
  Options options;
  cli.add_option("--position", options.position,
                 "Columns played so far, digits 1-7 from the left, first player first (Pascal Pons' notation; "
                 "empty: the empty board)")
      ->capture_default_str();
  cli.add_option("--lookahead", options.lookahead, "Moves to look ahead, in [1, 42]")->capture_default_str();
  return apps::parse_work_pool_command_line<Options>(cli, argc, argv, kProgram, [&] {
    options.board = apps::for_flag("--position", [&] { return Board::from_moves(options.position); });
    apps::for_flag("--lookahead", [&] { check_lookahead(options.lookahead); });
    return options;
  });
}

}  // namespace tessera::connect4::app
