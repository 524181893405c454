#pragma once
// The command line of tessera-uts: the tree flags; --workers, --report, --policy and --steal are
// the shared search-app flags (tessera/apps/search_options.hpp).

#include <string>
#include <string_view>

#include <tessera/apps/search_options.hpp>
#include <tessera/collections/steal/steal_flags.hpp>

#include "tessera/uts/params.hpp"
#include "tessera/uts/sha1.hpp"

namespace tessera::uts::app {

inline constexpr std::string_view kProgram = "tessera-uts";

struct Options : apps::SearchOptions {
  TreeParams params;
  std::string tree_name = "custom";  // T1..T5 when --tree named one
  Sha1Backend sha1 = default_sha1_backend();
};

using CommandLine = apps::CommandLine<Options>;

// Parses argv (after Context removed its --tessera_ flags). On --help prints usage to stdout; on
// a bad flag or value prints one message naming it to stderr and returns a non-zero exit code.
// Only a `speaking` process prints (rank 0), so a job says it once. `ranks` > 1 makes the search
// distributed, and so do the runtime's steal flags (`steal_flags`: --tessera_steal_policy,
// --tessera_steal_args, --tessera_workers > 1). --policy and --steal are the older spellings of
// the first two: they still work, with a deprecation warning.
CommandLine parse_command_line(int argc, char** argv, const collections::steal::StealFlags& steal_flags,
                               bool speaking = true, int ranks = 1);

}  // namespace tessera::uts::app
