// The shared flags of the search apps; their help texts are the apps' --help.
#include "tessera/apps/cli/search.hpp"

#include <iostream>
#include <sstream>

#include <tessera/collections/steal/steal_options.hpp>

namespace tessera::apps {

void add_search_flags(CLI::App& cli, SearchFlags& flags) {
  cli.add_option("--workers", flags.workers, "Search with a pool of N >= 1 threads stealing from each "
                                             "other (default: sequential search)");
  cli.add_option("--policy", flags.policy, "Deprecated: --tessera_steal_policy. Distributed search over task "
                                           "collections with this victim policy: random, lifeline or "
                                           "success_only (default lifeline when run on several ranks)");
  cli.add_option("--steal", flags.steal_keys, "Deprecated: --tessera_steal_args. Steal keys, key=value (repeatable): " +
                                                  collections::steal::steal_keys_help())
      ->allow_extra_args(false);  // one key per --steal, so a positional after it stays one
}

void add_report_flag(CLI::App& cli, SearchFlags& flags) {
  cli.add_option("--report", flags.report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
}

SearchOptions resolve_search_options(const SearchFlags& flags, const collections::steal::StealFlags& steal_flags,
                                     int ranks, std::string_view program, bool speaking) {
  if (speaking && flags.policy)
    std::cerr << program << ": warning: --policy is deprecated, use --tessera_steal_policy\n";
  if (speaking && !flags.steal_keys.empty())
    std::cerr << program << ": warning: --steal is deprecated, use --tessera_steal_args\n";
  SearchOptions options;
  static_cast<SearchMode&>(options) =
      resolve_search_mode(flags.workers, steal_flags, flags.policy, flags.steal_keys, ranks);
  options.json = flags.report == "json";
  return options;
}

std::optional<int> parse_flags(CLI::App& cli, int argc, char** argv, bool speaking) {
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    std::ostringstream quiet;  // the other ranks' copy of the message goes nowhere
    return speaking ? cli.exit(error) : cli.exit(error, quiet, quiet);
  }
  return std::nullopt;
}

}  // namespace tessera::apps
