#include "tessera/uts/distributed_search.hpp"

#include <tessera/collections/steal/task_collection.hpp>

#include "tessera/uts/tree.hpp"

namespace tessera::uts {

using collections::steal::Spawner;
using collections::steal::TaskCollection;

DistributedSearchResult search_distributed(Runtime& rt, Termination& term, const TreeParams& params,
                                           const collections::steal::StealOptions& options,
                                           Sha1Backend backend) {
  TreeGenerator generator(params, backend);
  TreeCounts tally;
  TaskCollection<Node> tree(rt, term, options, [&](const Node& node, Spawner<Node>& spawner) {
    ++tally.nodes;
    tally.depth = std::max(tally.depth, node.height);
    const std::int32_t children = generator.num_children(node);
    if (children == 0) ++tally.leaves;
    for (std::int32_t i = 0; i < children; ++i) spawner.spawn(generator.child(node, i));
  });
  if (rt.rank() == 0) tree.seed(generator.root());
  rt.collectives().barrier();  // time the search alone, from a common start
  DistributedSearchResult result;
  result.stats = tree.process();
  const auto sums = rt.collectives().allreduce(std::vector<std::uint64_t>{tally.nodes, tally.leaves}, op::sum{});
  result.counts = TreeCounts{sums[0], sums[1], rt.collectives().allreduce(tally.depth, op::max{})};
  return result;
}

}  // namespace tessera::uts
