#pragma once
// The octree partitioner of seed 002's section 35.4.2: the particles are divided in all three
// dimensions into eight octants, recursively, until an octant holds at most `leaf_size`
// particles; each split is a task ("each task consists of an octant and a list of particles";
// the octants of the split that still hold more than leaf_size particles become new tasks).
//
// The particle array is reordered in place: a split partitions its octant's range [begin, end)
// by x, then each half by y, then each quarter by z, about the octant's centre, leaving the
// eight children as consecutive ranges in the order of their index k = 4 [x >= cx] + 2 [y >= cy]
// + [z >= cz]. Splits of different octants touch disjoint ranges, so they run concurrently
// without locks, and each split's result depends only on its own range: every scheme leaves the
// array in the same order and builds the same tree.
//
// The root octant is the smallest cube centred on the particles' bounding box that holds them
// all. An octant is named by its key: a leading 1 bit, then its child index at each level (3
// bits per level). Octants at depth kMaxDepth are leaves whatever they hold, which stops the
// recursion on coincident particles (a float cube cannot be halved forever).
//
// Results: the leaves (non-empty octants not split), the depth of the deepest leaf (the root is
// depth 0), the splits made (the tasks), and a checksum of the leaf contents: the sum modulo
// 2^64 of a hash of (leaf key, particle id) over every particle in a leaf. The checksum does
// not depend on the order leaves are found in, and changes if any particle ends in another
// leaf; particles_in_leaves checks that every particle is in exactly one.

#include <cstdint>
#include <span>
#include <vector>

#include <tessera/collections/steal/work_pool.hpp>

#include "tessera/octree/particles.hpp"

namespace tessera::octree {

inline constexpr int kMaxDepth = 20;  // keys of 1 + 3 * 20 bits

struct Cube {
  float cx = 0, cy = 0, cz = 0;  // centre
  float half = 0;                // half the edge
};

struct Leaf {
  std::uint64_t key = 1;
  std::uint32_t begin = 0, end = 0;  // its particles' range in the reordered array
  std::int32_t depth = 0;
  Cube cube;
};

struct OctreeResult {
  std::int64_t leaves = 0;
  std::int32_t depth = 0;
  std::uint64_t checksum = 0;
  std::int64_t particles_in_leaves = 0;
  std::uint64_t splits = 0;  // tasks
  std::vector<Leaf> leaf_list;  // only when asked for
};

struct TaskOctreeResult {
  OctreeResult tree;
  collections::steal::WorkPoolRun run;  // tasks, peak task storage, CPU and wall seconds
};

// Throws tessera::Error unless leaf_size >= 1.
void check_leaf_size(std::int64_t leaf_size);

// The root cube of `particles` (non-empty).
Cube bounding_cube(std::span<const Particle> particles);

// Depth-first recursion with no tasks: the reference the task-based run is checked against.
// Reorders `particles`. `keep_leaves` fills leaf_list.
OctreeResult partition_sequential(std::span<Particle> particles, std::int64_t leaf_size, bool keep_leaves = false);

// Every split a task on `workers` threads under `scheme`. Reorders `particles`. Throws
// tessera::Error for an empty set, a bad leaf size or 0 workers.
TaskOctreeResult partition_tasks(std::span<Particle> particles, std::int64_t leaf_size,
                                 collections::steal::WorkPoolScheme scheme, std::size_t workers,
                                 bool keep_leaves = false);

}  // namespace tessera::octree
