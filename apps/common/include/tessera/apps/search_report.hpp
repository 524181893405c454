#pragma once
/// The parts of a search app's report that every app prints the same way: the policy line, the
/// steal line (and, for a distributed search, the per-rank table), and the JSON keys of how the
/// search ran. Each app prints its answer's lines around them.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "tessera/apps/search_run.hpp"

namespace tessera::apps {

/// "policy    lifeline (2 ranks, 1 worker each)" for a distributed search, else
/// "policy    workers (4 workers)"; with its newline.
std::string policy_line(const SearchRun& run);

/// "steals    A attempted, S successful", then for a distributed search the per-rank table.
void print_steals(std::ostream& out, const SearchRun& run);

/// {"policy", "workers", "steals_attempted", "steals_successful"}, and for a distributed search
/// the fields of stats_json() (ranks, tasks_per_rank, steals_failed, ...).
nlohmann::json run_json(const SearchRun& run);

}  // namespace tessera::apps
