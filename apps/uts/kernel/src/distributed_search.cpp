#include "tessera/uts/distributed_search.hpp"

#include <tessera/collections/steal/task_collection.hpp>

#include <vector>

#include "tessera/uts/tree.hpp"

namespace tessera::uts {

using collections::steal::CacheAligned;
using collections::steal::Spawner;
using collections::steal::TaskCollection;

DistributedSearchResult search_distributed(Runtime& rt, const TreeParams& params,
                                           const collections::steal::StealOptions& options,
                                           Sha1Backend backend) {
  // One generator (it owns a hasher) and one tally per worker thread: nothing shared per node.
  const auto workers = static_cast<std::size_t>(options.workers);
  std::vector<TreeGenerator> generators;
  generators.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) generators.emplace_back(params, backend);
  std::vector<CacheAligned<TreeCounts>> tallies(workers);
  TaskCollection<Node> tree(rt, options, [&](const Node& node, Spawner<Node>& spawner) {
    TreeGenerator& generator = generators[spawner.worker()];
    TreeCounts& tally = tallies[spawner.worker()].value;
    ++tally.nodes;
    tally.depth = std::max(tally.depth, node.height);
    const std::int32_t children = generator.num_children(node);
    if (children == 0) ++tally.leaves;
    for (std::int32_t i = 0; i < children; ++i) spawner.spawn(generator.child(node, i));
  });
  if (rt.rank() == 0) tree.seed(generators.front().root());
  rt.collectives().barrier();  // time the search alone, from a common start
  DistributedSearchResult result;
  result.stats = tree.process();
  TreeCounts mine;
  for (const auto& tally : tallies) mine.merge(tally.value);
  const auto sums = rt.collectives().allreduce(std::vector<std::uint64_t>{mine.nodes, mine.leaves}, op::sum{});
  result.counts = TreeCounts{sums[0], sums[1], rt.collectives().allreduce(mine.depth, op::max{})};
  return result;
}

}  // namespace tessera::uts
