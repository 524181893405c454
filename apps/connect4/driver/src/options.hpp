#pragma once
// The command line of tessera-connect4.

#include <optional>
#include <string>

#include <tessera/apps/work_pool_flags.hpp>

#include "tessera/connect4/board.hpp"

namespace tessera::connect4::app {

// The position searched when --position is not given (README.md shows it).
inline constexpr const char* kDefaultPosition = "4453326715";

struct Options {
  std::string position = kDefaultPosition;
  Board board;
  int lookahead = 7;
  apps::WorkPoolChoice pool;  // --scheme and --workers
  bool json = false;
};

struct CommandLine {
  std::optional<Options> options;  // empty: nothing to run (help printed, or an error)
  int exit_code = 0;
};

// Parses argv. On --help prints usage to stdout; on a bad flag or value prints one message
// naming it to stderr and returns exit code 2.
CommandLine parse_command_line(int argc, char** argv);

}  // namespace tessera::connect4::app
