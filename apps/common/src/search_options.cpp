// The shared flags of the search apps; their help texts are the apps' --help.
#include "tessera/apps/cli/search.hpp"

#include <iostream>

#include <tessera/collections/steal/steal_options.hpp>

namespace tessera::apps {

void add_search_flags(CLI::App& cli, SearchFlags& flags) {
  // --tessera_workers itself is Context's (it parses and removes every --tessera_ flag).
  add_workers_flags(cli, flags.workers, false,
                    "Threads: in one process a pool of N stealing from each other; in a distributed search N per "
                    "rank (default: sequential search)");
  cli.add_option("--policy", flags.policy, "Deprecated: --tessera_steal_policy. Distributed search over task "
                                           "collections with this victim policy: random, lifeline or "
                                           "success_only (default lifeline when run on several ranks)");
  cli.add_option("--steal", flags.steal_keys, "Deprecated: --tessera_steal_args. Steal keys, key=value (repeatable): " +
                                                  collections::steal::steal_keys_help())
      ->allow_extra_args(false);  // one key per --steal, so a positional after it stays one
}

SearchOptions resolve_search_options(const SearchFlags& flags, const SearchJob& job, std::string_view program) {
  if (job.speaking && flags.policy)
    std::cerr << program << ": warning: --policy is deprecated, use --tessera_steal_policy\n";
  if (job.speaking && !flags.steal_keys.empty())
    std::cerr << program << ": warning: --steal is deprecated, use --tessera_steal_args\n";
  WorkersFlags workers = flags.workers;
  if (job.workers_given) workers.workers = job.steal.workers;  // in range: Context checked it
  SearchOptions options;
  static_cast<SearchMode&>(options) = resolve_search_mode(resolve_workers(workers, program, job.speaking), job.steal,
                                                          flags.policy, flags.steal_keys, job.ranks);
  options.json = flags.report == "json";
  return options;
}

}  // namespace tessera::apps
