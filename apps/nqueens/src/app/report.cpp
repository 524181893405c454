#include "report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tessera/collections/steal/stats_json.hpp>

namespace tessera::nqueens::app {

void print_report(std::ostream& out, const Options& options, const SearchReport& report) {
  out << fmt::format("n         {}\nsolutions {}\n", options.n, report.solutions);
  out << fmt::format("tasks     {} (cutoff row {})\n", report.tasks, options.cutoff);
  if (report.steal_stats) {
    out << fmt::format("policy    {} ({} rank{}, {} worker{} each)\n", report.policy, report.ranks,
                       report.ranks == 1 ? "" : "s", report.workers, report.workers == 1 ? "" : "s");
  } else {
    out << fmt::format("policy    {} ({} worker{})\n", report.policy, report.workers,
                       report.workers == 1 ? "" : "s");
  }
  out << fmt::format("seconds   {:.3f}\n", report.seconds);
  out << fmt::format("steals    {} attempted, {} successful\n", report.steals_attempted,
                     report.steals_successful);
  if (report.steal_stats) collections::steal::print_stats(out, *report.steal_stats);
  if (options.json) {
    nlohmann::json json = {
        {"n", options.n},
        {"solutions", report.solutions},
        {"seconds", report.seconds},
        {"cutoff", options.cutoff},
        {"tasks", report.tasks},
        {"policy", report.policy},
        {"workers", report.workers},
        {"steals_attempted", report.steals_attempted},
        {"steals_successful", report.steals_successful},
    };
    if (report.steal_stats) json.update(collections::steal::stats_json(*report.steal_stats));
    out << json.dump() << "\n";
  }
}

}  // namespace tessera::nqueens::app
