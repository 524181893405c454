#pragma once
// The command line of tessera-uts.

#include <cstddef>
#include <optional>
#include <string>

#include "tessera/uts/params.hpp"
#include "tessera/uts/sha1.hpp"

namespace tessera::uts::app {

struct Options {
  TreeParams params;
  std::string tree_name = "custom";  // T1..T5 when --tree named one
  std::size_t workers = 0;           // 0: sequential search; N >= 1: a pool of N threads
  Sha1Backend sha1 = default_sha1_backend();
  bool json = false;  // --report=json
};

struct CommandLine {
  std::optional<Options> options;  // empty: nothing to run (help printed, or an error)
  int exit_code = 0;
};

// Parses argv. On --help prints usage to stdout; on a bad flag or value prints one message
// naming it to stderr and returns a non-zero exit code.
CommandLine parse_command_line(int argc, char** argv);

}  // namespace tessera::uts::app
