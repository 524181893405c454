#include "drivers.hpp"
#include "tessera/uts/worker_search.hpp"

namespace tessera::uts::app {

SearchReport run_workers(const Options& options) {
  const apps::Stopwatch clock;
  const WorkerSearchResult result = search_workers(options.params, options.pool_workers, options.sha1);
  return {result.counts, apps::pool_run(result.stats, options.pool_workers, clock.seconds())};
}

}  // namespace tessera::uts::app
