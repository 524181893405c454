#pragma once
// The command line of tessera-connect4: --position and --lookahead; --scheme, --tessera_workers
// (--workers) and --report are the work-pool apps' shared flags (tessera/apps/work_pool_app.hpp).

#include <string>
#include <string_view>

#include <tessera/apps/command_line.hpp>
#include <tessera/apps/work_pool_app.hpp>

#include "tessera/connect4/board.hpp"

namespace tessera::connect4::app {

inline constexpr std::string_view kProgram = "tessera-connect4";

// The position searched when --position is not given (README.md shows it).
inline constexpr const char* kDefaultPosition = "4453326715";

struct Options : apps::WorkPoolOptions {
  std::string position = kDefaultPosition;
  Board board;
  int lookahead = 7;
};

// Parses argv. On --help prints usage to stdout; on a bad flag or value prints one message
// naming it to stderr and returns exit code 2.
apps::CommandLine<Options> parse_command_line(int argc, char** argv);

}  // namespace tessera::connect4::app
