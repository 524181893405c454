#include "drivers.hpp"
#include "tessera/nqueens/worker_search.hpp"

namespace tessera::nqueens::app {

SearchReport run_workers(const Options& options) {
  const apps::Stopwatch clock;
  const WorkerSearchResult result = search_workers(options.n, options.cutoff, options.pool_workers);
  return {{result.solutions, result.tasks}, apps::pool_run(result.stats, options.pool_workers, clock.seconds())};
}

}  // namespace tessera::nqueens::app
