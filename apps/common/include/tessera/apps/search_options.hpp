#pragma once
/// The command line every search app shares: the flags --workers, --report and the deprecated
/// --policy and --steal (older spellings of --tessera_steal_policy and --tessera_steal_args), the
/// options they resolve to, and parsing that turns every bad input into one message and exit
/// code 2. An app adds its own flags to the same CLI::App and builds its Options, which derive
/// from SearchOptions, in parse_search_command_line's `build`.
#include <cstdint>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

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

/// Adds --workers, --policy and --steal. Separate from add_report_flag so an app keeps its own
/// order of flags in --help.
void add_search_flags(CLI::App& cli, SearchFlags& flags);
/// Adds --report (text or json).
void add_report_flag(CLI::App& cli, SearchFlags& flags);

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

/// Parses argv with `cli`. On --help returns 0 after printing usage, on a bad flag or value a
/// non-zero exit code after one message naming it; otherwise nothing. Only a `speaking` process
/// prints, so a job says it once.
std::optional<int> parse_flags(CLI::App& cli, int argc, char** argv, bool speaking);

/// parse_flags, then `build()` makes the Options from what was parsed. An exception from `build`
/// (bad input the flags' own checks cannot see) becomes one message "<program>: <what>" on stderr
/// (speaking) and exit code 2. Every rank parses the same arguments, so every rank stops alike.
template <class Options, class Build>
CommandLine<Options> parse_search_command_line(CLI::App& cli, int argc, char** argv, std::string_view program,
                                               bool speaking, Build&& build) {
  if (const std::optional<int> exit_code = parse_flags(cli, argc, argv, speaking)) return {std::nullopt, *exit_code};
  try {
    return {build(), 0};
  } catch (const std::exception& error) {
    if (speaking) std::cerr << program << ": " << error.what() << "\n";
    return {std::nullopt, 2};
  }
}

}  // namespace tessera::apps
