#include "tessera/uts/worker_search.hpp"

#include <vector>

#include "tessera/uts/tree.hpp"

#include <tessera/runtime/error.hpp>

namespace tessera::uts {

using collections::steal::CacheAligned;
using collections::steal::WorkerContext;
using collections::steal::WorkerPool;

WorkerSearchResult search_workers(const TreeParams& params, std::size_t workers, Sha1Backend backend) {
  // Checked here, not left to WorkerPool, so bad input is a tessera::Error like the others.
  if (workers == 0) throw Error("the number of workers is 0: expected at least 1");
  WorkerPool<Node> pool(workers);
  // One generator (it owns a hasher) and one tally per worker: nothing shared per node.
  std::vector<TreeGenerator> generators;
  generators.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    generators.emplace_back(params, backend);
  }
  std::vector<CacheAligned<TreeCounts>> tallies(workers);
  const Node root = generators.front().root();

  WorkerSearchResult result;
  result.stats = pool.run(std::span(&root, 1), [&](const Node& node, WorkerContext<Node>& context) {
    TreeGenerator& generator = generators[context.worker()];
    TreeCounts& tally = tallies[context.worker()].value;
    ++tally.nodes;
    tally.depth = std::max(tally.depth, node.height);
    const std::int32_t children = generator.num_children(node);
    if (children == 0) {
      ++tally.leaves;
    }
    for (std::int32_t i = 0; i < children; ++i) {
      context.spawn(generator.child(node, i));
    }
  });
  for (const auto& tally : tallies) {
    result.counts.merge(tally.value);
  }
  return result;
}

}  // namespace tessera::uts
