#pragma once
// One octant's split, and the tally of leaves, shared by the sequential and the task-based
// partitioners so both build the tree by the same rules.

#include <array>
#include <cstdint>
#include <span>

#include "tessera/octree/partition.hpp"

namespace tessera::octree::detail {

struct Octant {
  Cube cube;
  std::uint32_t begin = 0, end = 0;
  std::uint64_t key = 1;
  std::int32_t depth = 0;

  std::uint32_t size() const noexcept { return end - begin; }
};

// Reorders particles[octant.begin, octant.end) into its eight children and returns them in
// index order (empty ones included).
std::array<Octant, 8> split(std::span<Particle> particles, const Octant& octant);

// Whether an octant with this many particles at this depth is split further.
inline bool splits(std::uint32_t size, std::int32_t depth, std::int64_t leaf_size) noexcept {
  return size > static_cast<std::uint64_t>(leaf_size) && depth < kMaxDepth;
}

// Leaves as one worker finds them.
class LeafTally {
 public:
  void add(std::span<const Particle> particles, const Octant& leaf, bool keep);
  // Adds another worker's tally into this one.
  void merge(const LeafTally& other);
  OctreeResult result() const;

 private:
  std::int64_t leaves_ = 0;
  std::int32_t depth_ = 0;
  std::uint64_t checksum_ = 0;
  std::int64_t particles_ = 0;
  std::vector<Leaf> list_;
};

}  // namespace tessera::octree::detail
