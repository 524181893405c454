#include "report.hpp"

#include <fmt/format.h>

#include <tessera/apps/search_report.hpp>

namespace tessera::nqueens::app {

void print_report(std::ostream& out, const Options& options, const SearchReport& report) {
  out << fmt::format("n         {}\nsolutions {}\n", options.n, report.answer.solutions);
  out << fmt::format("tasks     {} (cutoff row {})\n", report.answer.tasks, options.cutoff);
  out << apps::policy_line(report.run);
  out << fmt::format("seconds   {:.3f}\n", report.run.seconds);
  apps::print_steals(out, report.run);
}

nlohmann::json report_json(const Options& options, const SearchReport& report) {
  return {
      {"n", options.n},
      {"solutions", report.answer.solutions},
      {"seconds", report.run.seconds},
      {"cutoff", options.cutoff},
      {"tasks", report.answer.tasks},
  };
}

}  // namespace tessera::nqueens::app
