#include "split.hpp"

namespace tessera::octree {
namespace {

struct Recursion {
  std::span<Particle> particles;
  std::int64_t leaf_size;
  bool keep_leaves;
  detail::LeafTally tally;
  std::uint64_t splits = 0;

  // `octant` is known to need a split.
  void divide(const detail::Octant& octant) {
    ++splits;
    for (const detail::Octant& child : detail::split(particles, octant)) {
      if (child.size() == 0) continue;
      if (detail::splits(child.size(), child.depth, leaf_size)) {
        divide(child);
      } else {
        tally.add(particles, child, keep_leaves);
      }
    }
  }
};

}  // namespace

OctreeResult partition_sequential(std::span<Particle> particles, std::int64_t leaf_size, bool keep_leaves) {
  check_particle_count(static_cast<std::int64_t>(particles.size()));
  check_leaf_size(leaf_size);
  Recursion recursion{particles, leaf_size, keep_leaves, {}, 0};
  const detail::Octant root{bounding_cube(particles), 0, static_cast<std::uint32_t>(particles.size()), 1, 0};
  if (detail::splits(root.size(), root.depth, leaf_size)) {
    recursion.divide(root);
  } else {
    recursion.tally.add(particles, root, keep_leaves);
  }
  OctreeResult result = recursion.tally.result();
  result.splits = recursion.splits;
  return result;
}

}  // namespace tessera::octree
