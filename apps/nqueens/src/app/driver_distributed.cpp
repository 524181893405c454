#include <tessera/runtime.hpp>

#include "drivers.hpp"
#include "tessera/nqueens/distributed_search.hpp"

namespace tessera::nqueens::app {

SearchReport run_distributed(const Options& options, Runtime& rt, Termination& term) {
  const DistributedSearchResult result = search_distributed(rt, term, options.n, options.cutoff, options.steal);
  SearchReport report;
  report.solutions = result.solutions;
  report.tasks = result.tasks;
  report.seconds = result.stats.seconds;
  report.policy = std::string(to_string(options.steal.policy));
  report.ranks = rt.size();
  report.workers = static_cast<std::size_t>(options.steal.workers);
  const auto total = result.stats.total();
  report.steals_attempted = total.steals_attempted;
  report.steals_successful = total.steals_successful;
  report.steal_stats = result.stats;
  return report;
}

}  // namespace tessera::nqueens::app
