#pragma once
// Counting a UTS tree: the sequential depth-first search every parallel search is checked
// against, and the counts both produce.

#include <algorithm>
#include <cstdint>

#include "tessera/uts/params.hpp"
#include "tessera/uts/sha1.hpp"

namespace tessera::uts {

struct TreeCounts {
  std::uint64_t nodes = 0;   // every node, the root included
  std::uint64_t leaves = 0;  // nodes with no children
  std::int32_t depth = 0;    // the largest node height; a lone root has depth 0

  // Counts of two disjoint parts of one tree combined.
  TreeCounts& merge(const TreeCounts& other) noexcept {
    nodes += other.nodes;
    leaves += other.leaves;
    depth = std::max(depth, other.depth);
    return *this;
  }

  friend bool operator==(const TreeCounts&, const TreeCounts&) = default;
};

// Generates and counts the whole tree depth-first on the calling thread, keeping only the
// unexpanded siblings on an explicit stack (memory: O(depth x max children) nodes).
// Throws tessera::Error if `params` fail validate().
TreeCounts search_sequential(const TreeParams& params, Sha1Backend backend = default_sha1_backend());

}  // namespace tessera::uts
