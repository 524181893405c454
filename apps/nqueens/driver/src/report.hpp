#pragma once
// Printing a search's results: a table for people, and with --report=json one JSON object on the
// last line with the keys n, solutions, seconds, cutoff and tasks, beside the shared ones
// (tessera/apps/search_report.hpp: policy, workers, steals_attempted, steals_successful, and a
// distributed search's stealing statistics).

#include <ostream>

#include <nlohmann/json.hpp>

#include "drivers.hpp"
#include "options.hpp"

namespace tessera::nqueens::app {

void print_report(std::ostream& out, const Options& options, const SearchReport& report);
// The keys above that are tessera-nqueens's own.
nlohmann::json report_json(const Options& options, const SearchReport& report);

}  // namespace tessera::nqueens::app
