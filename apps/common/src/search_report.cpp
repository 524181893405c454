// The report lines and JSON keys shared by the search apps. tests/apps/uts and tests/apps/nqueens
// match these lines and keys: change their wording only with those tests.
#include "tessera/apps/search_report.hpp"

#include <fmt/format.h>

#include "tessera/apps/stats_json.hpp"

namespace tessera::apps {
namespace {
const char* plural(std::size_t count) { return count == 1 ? "" : "s"; }
}  // namespace

std::string policy_line(const SearchRun& run) {
  if (run.steal_stats) {
    return fmt::format("policy    {} ({} rank{}, {} worker{} each)\n", run.policy, run.ranks,
                       plural(static_cast<std::size_t>(run.ranks)), run.workers, plural(run.workers));
  }
  return fmt::format("policy    {} ({} worker{})\n", run.policy, run.workers, plural(run.workers));
}

void print_steals(std::ostream& out, const SearchRun& run) {
  out << fmt::format("steals    {} attempted, {} successful\n", run.steals_attempted, run.steals_successful);
  if (run.steal_stats) collections::steal::print_stats(out, *run.steal_stats);
}

nlohmann::json run_json(const SearchRun& run) {
  nlohmann::json json = {
      {"policy", run.policy},
      {"workers", run.workers},
      {"steals_attempted", run.steals_attempted},
      {"steals_successful", run.steals_successful},
  };
  if (run.steal_stats) json.update(stats_json(*run.steal_stats));
  return json;
}

}  // namespace tessera::apps
