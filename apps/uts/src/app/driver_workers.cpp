#include <chrono>

#include "drivers.hpp"
#include "tessera/uts/worker_search.hpp"

namespace tessera::uts::app {

SearchReport run_workers(const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  const WorkerSearchResult result = search_workers(options.params, options.workers, options.sha1);
  SearchReport report;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.counts = result.counts;
  report.policy = "workers";
  report.workers = options.workers;
  const auto total = result.stats.total();
  report.steals_attempted = total.steals_attempted;
  report.steals_successful = total.steals_successful;
  return report;
}

}  // namespace tessera::uts::app
