// The flags every app spells alike, and the parse every app shares; their help texts are the
// apps' --help.
#include "tessera/apps/cli/command_line.hpp"

#include <sstream>

namespace tessera::apps {

void add_report_flag(CLI::App& cli, std::string& report) {
  cli.add_option("--report", report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
}

void add_workers_flags(CLI::App& cli, WorkersFlags& flags, bool tessera_workers, const std::string& what) {
  const std::string range = "N in [1, " + std::to_string(kMaxWorkers) + "]";
  if (tessera_workers)
    cli.add_option(std::string(collections::steal::WorkersFlag::name), flags.workers, "Worker threads, " + range + ". " + what);
  cli.add_option("--workers", flags.deprecated, "Deprecated: --tessera_workers. " + what);
}

std::optional<int> parse_flags(CLI::App& cli, int argc, char** argv, bool speaking) {
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    std::ostringstream quiet;  // the other ranks' copy of the message goes nowhere
    const int code = speaking ? cli.exit(error) : cli.exit(error, quiet, quiet);
    return code == 0 ? 0 : 2;  // CLI11's own codes differ by kind; a script wants one for bad input
  }
  return std::nullopt;
}

}  // namespace tessera::apps
