#include <tessera/tessera.hpp>

#include "drivers.hpp"
#include "tessera/uts/distributed_search.hpp"

namespace tessera::uts::app {

SearchReport run_distributed(const Options& options, Context& ctx) {
  const DistributedSearchResult result = search_distributed(ctx.runtime(), options.params, ctx.steal().options(), options.sha1);
  return {result.counts, apps::distributed_run(result.stats, ctx.steal().options(), ctx.runtime().size())};
}

}  // namespace tessera::uts::app
