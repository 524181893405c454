#pragma once
/// CLI11 glue every app's options.cpp shares: the flags all apps spell alike (--report, and
/// --tessera_workers with its deprecated spelling --workers) and the parse that turns every bad
/// input into one message and exit code 2. The headers under apps/common/cli/ (outside include/:
/// not public) are the only app headers that include CLI11.
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include <tessera/runtime/error.hpp>

#include "tessera/apps/command_line.hpp"
#include "tessera/apps/workers.hpp"

namespace tessera::apps {

/// Adds --report (text or json).
void add_report_flag(CLI::App& cli, std::string& report);

/// Adds --workers, the deprecated spelling of --tessera_workers, and --tessera_workers itself
/// when `tessera_workers` (an app that starts tessera::Context leaves that flag to it). `what`
/// ends the help text: what the threads do in this app.
void add_workers_flags(CLI::App& cli, WorkersFlags& flags, bool tessera_workers, const std::string& what);

/// Parses argv with `cli`. After --help returns 0 (usage printed), after a bad flag or value 2
/// (one message naming it); otherwise nothing. Only a `speaking` process prints, so a job says
/// it once.
std::optional<int> parse_flags(CLI::App& cli, int argc, char** argv, bool speaking);

/// parse_flags, then `build()` makes the Options from what was parsed. A tessera::Error from
/// `build` (bad input the flags' own checks cannot see; its message names the flag or file)
/// becomes one message "<program>: <what>" on stderr (speaking) and exit code 2. Every rank
/// parses the same arguments, so every rank stops alike.
template <class Options, class Build>
CommandLine<Options> parse_command_line(CLI::App& cli, int argc, char** argv, std::string_view program,
                                        bool speaking, Build&& build) {
  if (const std::optional<int> exit_code = parse_flags(cli, argc, argv, speaking)) return {std::nullopt, *exit_code};
  try {
    return {build(), 0};
  } catch (const Error& error) {
    if (speaking) std::cerr << program << ": " << error.what() << "\n";
    return {std::nullopt, 2};
  }
}

}  // namespace tessera::apps
