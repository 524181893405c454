#pragma once
/// CLI11 glue, for a search app's options.cpp only: adds the shared flags (search_options.hpp) to
/// the app's CLI::App and parses it, turning every bad input into one message and exit code 2.
/// The headers under apps/common/cli/ (outside include/: not public) are the only app headers
/// that include CLI11.
#include <exception>
#include <iostream>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

#include "tessera/apps/search_options.hpp"

namespace tessera::apps {

/// Adds --workers, --policy and --steal. Separate from add_report_flag so an app keeps its own
/// order of flags in --help.
void add_search_flags(CLI::App& cli, SearchFlags& flags);
/// Adds --report (text or json).
void add_report_flag(CLI::App& cli, SearchFlags& flags);

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
