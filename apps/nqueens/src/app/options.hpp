#pragma once
// The command line of tessera-nqueens.

#include <cstddef>
#include <cstdint>
#include <optional>

namespace tessera::nqueens::app {

struct Options {
  std::int32_t n = 0;
  std::int32_t cutoff = 0;   // rows placed by tasks; the rest is searched serially
  std::size_t workers = 0;   // 0: sequential; N >= 1: a pool of N threads
  bool json = false;         // --report=json
};

struct CommandLine {
  std::optional<Options> options;  // empty: nothing to run (help printed, or an error)
  int exit_code = 0;
};

// Parses argv. On --help prints usage to stdout; on a bad flag or value prints one message
// naming it to stderr and returns a non-zero exit code.
CommandLine parse_command_line(int argc, char** argv);

}  // namespace tessera::nqueens::app
