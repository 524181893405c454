#include <vector>

#include <tessera/collections/steal/cache_line.hpp>

#include "split.hpp"

#include <tessera/runtime/error.hpp>

namespace tessera::octree {

TaskOctreeResult partition_tasks(std::span<Particle> particles, std::int64_t leaf_size,
                                 collections::steal::WorkPoolScheme scheme, std::size_t workers, bool keep_leaves) {
  check_particle_count(static_cast<std::int64_t>(particles.size()));
  check_leaf_size(leaf_size);
  if (workers == 0) throw Error("the number of workers is 0: expected at least 1");
  std::vector<collections::steal::CacheAligned<detail::LeafTally>> tallies(workers);
  const detail::Octant root{bounding_cube(particles), 0, static_cast<std::uint32_t>(particles.size()), 1, 0};
  TaskOctreeResult result;
  if (!detail::splits(root.size(), root.depth, leaf_size)) {
    tallies[0].value.add(particles, root, keep_leaves);  // nothing to split: no task
  } else {
    // A depth-first worker holds at most 7 pending siblings on each level above the octant it
    // splits, plus that octant's 8 children: 8 * kMaxDepth slots, and one for the seed.
    const collections::steal::WorkPoolShape shape{8, 8 * kMaxDepth + 1};
    result.run = collections::steal::run_work_pool(
        scheme, workers, shape, std::span(&root, 1), [&](const detail::Octant& octant, auto& context) {
          detail::LeafTally& tally = tallies[context.worker()].value;
          for (const detail::Octant& child : detail::split(particles, octant)) {
            if (child.size() == 0) continue;
            if (detail::splits(child.size(), child.depth, leaf_size)) {
              context.spawn(child);
            } else {
              tally.add(particles, child, keep_leaves);
            }
          }
        });
  }
  for (std::size_t w = 1; w < workers; ++w) tallies[0].value.merge(tallies[w].value);
  result.tree = tallies[0].value.result();
  result.tree.splits = result.run.tasks;
  return result;
}

}  // namespace tessera::octree
