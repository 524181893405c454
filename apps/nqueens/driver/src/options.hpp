#pragma once
// The command line of tessera-nqueens: N and --cutoff; --workers, --report, --policy and --steal
// are the shared search-app flags (tessera/apps/search_options.hpp).

#include <cstdint>
#include <string_view>

#include <tessera/apps/search_options.hpp>

namespace tessera::nqueens::app {

inline constexpr std::string_view kProgram = "tessera-nqueens";

struct Options : apps::SearchOptions {
  std::int32_t n = 0;
  std::int32_t cutoff = 0;  // rows placed by tasks; the rest is searched serially
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

}  // namespace tessera::nqueens::app
