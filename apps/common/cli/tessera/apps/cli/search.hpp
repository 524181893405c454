#pragma once
/// CLI11 glue, for a search app's options.cpp only: adds the shared flags (search_options.hpp) to
/// the app's CLI::App; parse_command_line (command_line.hpp) parses them with the app's own.
/// The headers under apps/common/cli/ (outside include/: not public) are the only app headers
/// that include CLI11.
#include <CLI/CLI.hpp>

#include "tessera/apps/cli/command_line.hpp"
#include "tessera/apps/search_options.hpp"

namespace tessera::apps {

/// Adds --workers, --policy and --steal. Separate from add_report_flag so an app keeps its own
/// order of flags in --help.
void add_search_flags(CLI::App& cli, SearchFlags& flags);

}  // namespace tessera::apps
