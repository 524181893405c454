#pragma once
// The command line of tessera-uts: the tree flags; --workers, --report, --policy and --steal are
// the shared search-app flags (tessera/apps/search_options.hpp).

#include <string>
#include <string_view>

#include <tessera/apps/search_options.hpp>

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
// a bad flag or value prints one message naming it to stderr and returns exit code 2. Only a
// speaking process prints (rank 0), so a job says it once. The search is distributed on several
// ranks or with a steal policy or keys (`job.steal`: --tessera_steal_policy, --tessera_steal_args);
// --tessera_workers (or its older spelling --workers) is its threads per rank, or without a
// distributed search the threads of a pool in this process. --policy and --steal are the older
// spellings of the steal flags: they still work, with a deprecation warning.
CommandLine parse_command_line(int argc, char** argv, const apps::SearchJob& job);

}  // namespace tessera::uts::app
