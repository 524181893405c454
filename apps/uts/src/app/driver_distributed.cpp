#include <tessera/runtime.hpp>

#include "drivers.hpp"
#include "tessera/uts/distributed_search.hpp"

namespace tessera::uts::app {

SearchReport run_distributed(const Options& options, Runtime& rt, Termination& term) {
  const DistributedSearchResult result = search_distributed(rt, term, options.params, options.steal, options.sha1);
  return {result.counts, apps::distributed_run(result.stats, options.steal, rt.size())};
}

}  // namespace tessera::uts::app
