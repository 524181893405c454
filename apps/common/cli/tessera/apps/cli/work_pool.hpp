#pragma once
/// CLI11 glue, for a work-pool app's options.cpp only: adds --scheme, --tessera_workers (and its
/// deprecated spelling --workers) and --report after the app's own flags, and parses them. The
/// headers under apps/common/cli/ (outside include/: not public) are the only app headers that
/// include CLI11; every other header describes options as plain structs.
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "tessera/apps/cli/command_line.hpp"
#include "tessera/apps/work_pool_app.hpp"

namespace tessera::apps {

/// Adds --scheme, --tessera_workers and --workers.
void add_work_pool_flags(CLI::App& cli, WorkPoolFlags& flags);

/// Adds the shared flags to `cli` (which holds the app's own), parses argv, and makes the Options
/// with `build()` (the app's own checks; it throws tessera::Error naming the flag), then fills in
/// the pool and the report. Bad input: one message "<program>: <what>" and exit code 2.
template <class Options, class Build>
CommandLine<Options> parse_work_pool_command_line(CLI::App& cli, int argc, char** argv, std::string_view program,
                                                  Build&& build) {
  WorkPoolFlags pool;
  std::string report = "text";
  add_work_pool_flags(cli, pool);
  add_report_flag(cli, report);
  return parse_command_line<Options>(cli, argc, argv, program, true, [&] {
    Options options = build();
    options.pool = pool.choice(program);
    options.json = report == "json";
    return options;
  });
}

}  // namespace tessera::apps
