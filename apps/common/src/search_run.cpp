// The summary of a search run for each kind of driver.
#include "tessera/apps/search_run.hpp"

namespace tessera::apps {

SearchRun sequential_run(double seconds) {
  SearchRun run;
  run.seconds = seconds;
  run.policy = "sequential";
  return run;
}

SearchRun pool_run(const collections::steal::PoolStats& stats, std::size_t workers, double seconds) {
  SearchRun run;
  run.seconds = seconds;
  run.policy = "workers";
  run.workers = workers;
  const auto total = stats.total();
  run.steals_attempted = total.steals_attempted;
  run.steals_successful = total.steals_successful;
  return run;
}

SearchRun distributed_run(const collections::steal::IterationStats& stats,
                          const collections::steal::StealOptions& steal, int ranks) {
  SearchRun run;
  run.seconds = stats.seconds;
  run.policy = std::string(to_string(steal.policy));
  run.ranks = ranks;
  run.workers = static_cast<std::size_t>(steal.workers);
  const auto total = stats.total();
  run.steals_attempted = total.steals_attempted;
  run.steals_successful = total.steals_successful;
  run.steal_stats = stats;
  return run;
}

}  // namespace tessera::apps
