#include <chrono>

#include "drivers.hpp"
#include "tessera/nqueens/worker_search.hpp"

namespace tessera::nqueens::app {

SearchReport run_workers(const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  const WorkerSearchResult result = search_workers(options.n, options.cutoff, options.workers);
  SearchReport report;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.solutions = result.solutions;
  report.tasks = result.tasks;
  report.policy = "workers";
  report.workers = options.workers;
  const auto total = result.stats.total();
  report.steals_attempted = total.steals_attempted;
  report.steals_successful = total.steals_successful;
  return report;
}

}  // namespace tessera::nqueens::app
