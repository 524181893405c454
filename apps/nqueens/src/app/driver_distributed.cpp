#include <tessera/runtime.hpp>

#include "drivers.hpp"
#include "tessera/nqueens/distributed_search.hpp"

namespace tessera::nqueens::app {

SearchReport run_distributed(const Options& options, Runtime& rt, Termination& term) {
  const DistributedSearchResult result = search_distributed(rt, term, options.n, options.cutoff, options.steal);
  return {{result.solutions, result.tasks}, apps::distributed_run(result.stats, options.steal, rt.size())};
}

}  // namespace tessera::nqueens::app
