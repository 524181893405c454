#pragma once
/// What parsing an application's command line gives: the options to run with, or the exit code
/// when there is nothing to run. Parsing itself is CLI11 glue (cli/tessera/apps/cli/command_line.hpp)
/// that only an app's options.cpp includes, so this header stays a plain struct.
#include <optional>

namespace tessera::apps {

/// A parsed command line: the options, or why there is nothing to run.
template <class Options>
struct CommandLine {
  std::optional<Options> options;  ///< empty: nothing to run (help printed, or an error)
  int exit_code = 0;               ///< 0 after --help, 2 after bad input
};

}  // namespace tessera::apps
