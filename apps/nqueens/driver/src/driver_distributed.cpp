#include <tessera/tessera.hpp>

#include "drivers.hpp"
#include "tessera/nqueens/distributed_search.hpp"

namespace tessera::nqueens::app {

SearchReport run_distributed(const Options& options, Context& ctx) {
  const DistributedSearchResult result = search_distributed(ctx.runtime(), options.n, options.cutoff, ctx.steal().options());
  return {{result.solutions, result.tasks}, apps::distributed_run(result.stats, ctx.steal().options(), ctx.runtime().size())};
}

}  // namespace tessera::nqueens::app
