#include "tessera/uts/search.hpp"

#include <vector>

#include "tessera/uts/tree.hpp"

namespace tessera::uts {

TreeCounts search_sequential(const TreeParams& params, Sha1Backend backend) {
  TreeGenerator generator(params, backend);
  TreeCounts counts;
  std::vector<Node> stack{generator.root()};
  while (!stack.empty()) {
    const Node node = stack.back();
    stack.pop_back();
    ++counts.nodes;
    counts.depth = std::max(counts.depth, node.height);
    const std::int32_t children = generator.num_children(node);
    if (children == 0) {
      ++counts.leaves;
    }
    for (std::int32_t i = 0; i < children; ++i) {
      stack.push_back(generator.child(node, i));
    }
  }
  return counts;
}

}  // namespace tessera::uts
