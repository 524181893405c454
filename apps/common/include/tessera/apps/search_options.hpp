#pragma once
/// The command line every search app shares: the flags --report, --workers (the deprecated
/// spelling of --tessera_workers) and the deprecated --policy and --steal (older spellings of
/// --tessera_steal_policy and --tessera_steal_args) as plain structs, and the options they
/// resolve to. Parsing them is CLI11 glue in cli/search.hpp, which only an app's options.cpp
/// includes: an app adds its own flags to the same CLI::App and builds its Options, which derive
/// from SearchOptions, in parse_command_line's `build`.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tessera/collections/steal/steal_flags.hpp>

#include "tessera/apps/command_line.hpp"
#include "tessera/apps/search_mode.hpp"
#include "tessera/apps/workers.hpp"

namespace tessera::apps {

/// How the search runs and reports: the base of every search app's Options.
struct SearchOptions : SearchMode {
  bool json = false;  ///< --report=json
};

/// The shared flags as given on the command line.
struct SearchFlags {
  WorkersFlags workers;                 ///< --workers (deprecated); --tessera_workers is Context's
  std::optional<std::string> policy;    ///< --policy (deprecated)
  std::vector<std::string> steal_keys;  ///< --steal (deprecated, repeatable)
  std::string report = "text";          ///< --report
};

/// What an app's parser learns from the runtime, which parsed (and removed from argv) every
/// --tessera_ flag before the app parses its own.
struct SearchJob {
  const collections::steal::StealFlags& steal;  ///< --tessera_steal_policy, _args, --tessera_workers
  bool workers_given = false;  ///< --tessera_workers was on the command line (steal.workers is not its default)
  int ranks = 1;
  bool speaking = true;  ///< this process prints messages and warnings (rank 0)
};

/// The options `flags` give in `job`. A speaking process warns on stderr, as `program`, that
/// --workers, --policy and --steal are deprecated. Throws tessera::Error as resolve_workers and
/// resolve_search_mode do.
SearchOptions resolve_search_options(const SearchFlags& flags, const SearchJob& job, std::string_view program);

}  // namespace tessera::apps
