#include "report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <tessera/collections/steal/stats_json.hpp>

namespace tessera::uts::app {

void print_report(std::ostream& out, const Options& options, const SearchReport& report) {
  const double rate = report.seconds > 0 ? static_cast<double>(report.counts.nodes) / report.seconds : 0.0;
  out << fmt::format("tree      {} ({}, {})\n", options.tree_name, to_string(options.params.type),
                     describe(options.params));
  if (report.steal_stats) {
    out << fmt::format("policy    {} ({} rank{}, {} worker{} each)\n", report.policy, report.ranks,
                       report.ranks == 1 ? "" : "s", report.workers, report.workers == 1 ? "" : "s");
  } else {
    out << fmt::format("policy    {} ({} worker{})\n", report.policy, report.workers,
                       report.workers == 1 ? "" : "s");
  }
  out << fmt::format("nodes     {}\nleaves    {}\ndepth     {}\n", report.counts.nodes,
                     report.counts.leaves, report.counts.depth);
  out << fmt::format("seconds   {:.3f}\nnodes/s   {:.4g}\n", report.seconds, rate);
  out << fmt::format("steals    {} attempted, {} successful\n", report.steals_attempted,
                     report.steals_successful);
  if (report.steal_stats) collections::steal::print_stats(out, *report.steal_stats);
  if (options.json) {
    nlohmann::json json = {
        {"nodes", report.counts.nodes},
        {"leaves", report.counts.leaves},
        {"depth", report.counts.depth},
        {"seconds", report.seconds},
        {"nodes_per_s", rate},
        {"policy", report.policy},
        {"workers", report.workers},
        {"steals_attempted", report.steals_attempted},
        {"steals_successful", report.steals_successful},
        {"tree", options.tree_name},
        {"parameters", describe(options.params)},
    };
    if (report.steal_stats) json.update(collections::steal::stats_json(*report.steal_stats));
    out << json.dump() << "\n";
  }
}

}  // namespace tessera::uts::app
