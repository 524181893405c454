#pragma once
// The command line of tessera-nqueens: N and --cutoff; --workers, --report, --policy and --steal
// are the shared search-app flags (tessera/apps/search_options.hpp).

#include <cstdint>
#include <string_view>

#include <tessera/apps/search_options.hpp>
#include <tessera/collections/steal/steal_flags.hpp>

namespace tessera::nqueens::app {

inline constexpr std::string_view kProgram = "tessera-nqueens";

struct Options : apps::SearchOptions {
  std::int32_t n = 0;
  std::int32_t cutoff = 0;  // rows placed by tasks; the rest is searched serially
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

}  // namespace tessera::nqueens::app
