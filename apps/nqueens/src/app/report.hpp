#pragma once
// Printing a search's results: a table for people, and with --report=json one JSON object
// on the last line with the keys n, solutions, seconds (plus cutoff, tasks, policy,
// workers, steals_attempted, steals_successful).

#include <ostream>

#include "drivers.hpp"
#include "options.hpp"

namespace tessera::nqueens::app {

void print_report(std::ostream& out, const Options& options, const SearchReport& report);

}  // namespace tessera::nqueens::app
