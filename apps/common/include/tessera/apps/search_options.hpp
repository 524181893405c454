#pragma once
/// The command line every search app shares: the flags --workers, --report and the deprecated
/// --policy and --steal (older spellings of --tessera_steal_policy and --tessera_steal_args) as
/// plain structs, and the options they resolve to. Parsing them is CLI11 glue in cli/search.hpp,
/// which only an app's options.cpp includes: an app adds its own flags to the same CLI::App and
/// builds its Options, which derive from SearchOptions, in parse_search_command_line's `build`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tessera/collections/steal/steal_flags.hpp>

#include "tessera/apps/search_mode.hpp"

namespace tessera::apps {

/// How the search runs and reports: the base of every search app's Options.
struct SearchOptions : SearchMode {
  bool json = false;  ///< --report=json
};

/// The shared flags as given on the command line.
struct SearchFlags {
  std::optional<std::int64_t> workers;   ///< --workers
  std::optional<std::string> policy;     ///< --policy (deprecated)
  std::vector<std::string> steal_keys;   ///< --steal (deprecated, repeatable)
  std::string report = "text";           ///< --report
};

/// The options `flags` give with the runtime's `steal_flags` on `ranks` ranks. A `speaking`
/// process (rank 0) warns on stderr, as `program`, that --policy and --steal are deprecated.
/// Throws as resolve_search_mode does.
SearchOptions resolve_search_options(const SearchFlags& flags, const collections::steal::StealFlags& steal_flags,
                                     int ranks, std::string_view program, bool speaking);

/// A parsed command line: the options, or why there is nothing to run.
template <class Options>
struct CommandLine {
  std::optional<Options> options;  ///< empty: nothing to run (help printed, or an error)
  int exit_code = 0;
};

}  // namespace tessera::apps
