#include "report.hpp"

#include <fmt/format.h>

#include <tessera/apps/search_report.hpp>

namespace tessera::uts::app {
namespace {
double nodes_per_second(const SearchReport& report) {
  return report.run.seconds > 0 ? static_cast<double>(report.answer.nodes) / report.run.seconds : 0.0;
}
}  // namespace

void print_report(std::ostream& out, const Options& options, const SearchReport& report) {
  const TreeCounts& counts = report.answer;
  out << fmt::format("tree      {} ({}, {})\n", options.tree_name, to_string(options.params.type),
                     describe(options.params));
  out << apps::policy_line(report.run);
  out << fmt::format("nodes     {}\nleaves    {}\ndepth     {}\n", counts.nodes, counts.leaves, counts.depth);
  out << fmt::format("seconds   {:.3f}\nnodes/s   {:.4g}\n", report.run.seconds, nodes_per_second(report));
  apps::print_steals(out, report.run);
}

nlohmann::json report_json(const Options& options, const SearchReport& report) {
  return {
      {"nodes", report.answer.nodes},
      {"leaves", report.answer.leaves},
      {"depth", report.answer.depth},
      {"seconds", report.run.seconds},
      {"nodes_per_s", nodes_per_second(report)},
      {"tree", options.tree_name},
      {"parameters", describe(options.params)},
  };
}

}  // namespace tessera::uts::app
