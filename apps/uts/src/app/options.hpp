#pragma once
// The command line of tessera-uts.

#include <cstddef>
#include <optional>
#include <string>

#include "tessera/collections/steal/steal_flags.hpp"
#include "tessera/collections/steal/steal_options.hpp"
#include "tessera/uts/params.hpp"
#include "tessera/uts/sha1.hpp"

namespace tessera::uts::app {

struct Options {
  TreeParams params;
  std::string tree_name = "custom";  // T1..T5 when --tree named one
  std::size_t workers = 0;           // 0: sequential search; N >= 1: a pool of N threads
  Sha1Backend sha1 = default_sha1_backend();
  bool json = false;  // --report=json
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

}  // namespace tessera::uts::app
