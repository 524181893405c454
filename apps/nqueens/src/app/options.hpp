#pragma once
// The command line of tessera-nqueens.

#include <cstddef>
#include <cstdint>
#include <optional>

#include <tessera/collections/steal/steal_flags.hpp>
#include <tessera/collections/steal/steal_options.hpp>

namespace tessera::nqueens::app {

struct Options {
  std::int32_t n = 0;
  std::int32_t cutoff = 0;   // rows placed by tasks; the rest is searched serially
  std::size_t workers = 0;   // 0: sequential; N >= 1: a pool of N threads
  bool json = false;         // --report=json
  bool distributed = false;  // --policy given, or more than one rank: search over task collections
  collections::steal::StealOptions steal;  // --policy and --steal keys
};

struct CommandLine {
  std::optional<Options> options;  // empty: nothing to run (help printed, or an error)
  int exit_code = 0;
};

// Parses argv (after the runtime removed its --tessera_ flags). On --help prints usage to
// stdout; on a bad flag or value prints one message naming it to stderr and returns a
// non-zero exit code. Only a `speaking` process prints (rank 0), so a job says it once.
// `ranks` > 1 makes the search distributed, and so do the runtime's steal flags (`steal_flags`:
// --tessera_steal_policy, --tessera_steal_args, --tessera_workers > 1). --policy and --steal are
// the older spellings of the first two: they still work, with a deprecation warning.
CommandLine parse_command_line(int argc, char** argv, const collections::steal::StealFlags& steal_flags,
                               bool speaking = true, int ranks = 1);

}  // namespace tessera::nqueens::app
