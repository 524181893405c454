#pragma once
/// The k-ary spanning tree over ranks used by broadcasts and reductions: ranks are renumbered
/// relative to the root (r' = (r - root) mod P), and r' has children r'k+1 .. r'k+k.
#include <vector>

namespace tessera {

/// Children of `rank` in the tree rooted at `root` over `size` ranks with branching `fanout`.
inline std::vector<int> spanning_tree_children(int rank, int root, int size, int fanout) {
  std::vector<int> children;
  const long relative = (rank - root + size) % size;
  for (int i = 1; i <= fanout; ++i) {
    const long child = relative * fanout + i;
    if (child >= size) break;
    children.push_back(static_cast<int>((child + root) % size));
  }
  return children;
}

/// Parent of `rank` in that tree, or -1 for the root.
inline int spanning_tree_parent(int rank, int root, int size, int fanout) {
  if (rank == root) return -1;
  const int relative = (rank - root + size) % size;
  return ((relative - 1) / fanout + root) % size;
}

}  // namespace tessera
