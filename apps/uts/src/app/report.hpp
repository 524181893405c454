#pragma once
// Printing a search's results: a table for people, and with --report=json one JSON object
// on the last line with the keys nodes, leaves, depth, seconds, nodes_per_s, policy,
// steals_attempted, steals_successful (plus tree, parameters and workers).

#include <ostream>

#include "drivers.hpp"
#include "options.hpp"

namespace tessera::uts::app {

void print_report(std::ostream& out, const Options& options, const SearchReport& report);

}  // namespace tessera::uts::app
