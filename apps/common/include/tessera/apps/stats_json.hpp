#pragma once
/// A distributed search's IterationStats as JSON fields, for the apps' --report=json. Header-only,
/// so only programs that print JSON need nlohmann_json.
#include <tessera/collections/steal/steal_stats.hpp>

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessera::apps {

/// {"ranks", "tasks_per_rank", "steals_attempted", "steals_successful", "steals_failed",
///  "lifeline_activations", "worker_steals", "work_seconds", "steal_seconds", "cpu_seconds"}:
///  totals over ranks, seconds summed.
inline nlohmann::json stats_json(const collections::steal::IterationStats& stats) {
  const collections::steal::RankStats total = stats.total();
  std::vector<std::uint64_t> tasks;
  for (const collections::steal::RankStats& r : stats.ranks) tasks.push_back(r.tasks_executed);
  return {{"ranks", stats.ranks.size()},
          {"tasks_per_rank", tasks},
          {"steals_attempted", total.steals_attempted},
          {"steals_successful", total.steals_successful},
          {"steals_failed", total.steals_failed},
          {"lifeline_activations", total.lifeline_activations},
          {"worker_steals", total.worker_steals},
          {"work_seconds", total.work_seconds},
          {"steal_seconds", total.steal_seconds},
          {"cpu_seconds", total.cpu_seconds}};
}

}  // namespace tessera::apps
