#include <tessera/runtime.hpp>

#include "drivers.hpp"
#include "tessera/nqueens/distributed_search.hpp"

namespace tessera::nqueens::app {

SearchReport run_distributed(const Options& options, Runtime& rt, Termination& term) {
  const DistributedSearchResult result = search_distributed(rt, term, options.n, options.cutoff, options.steal);
  SearchReport report;
  static_cast<collections::steal::SearchRun&>(report) =
      collections::steal::distributed_run(result.stats, options.steal, rt.size());
  report.solutions = result.solutions;
  report.tasks = result.tasks;
  return report;
}

}  // namespace tessera::nqueens::app
