#include "split.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::octree {

void check_leaf_size(std::int64_t leaf_size) {
  if (leaf_size < 1) {
    throw Error(fmt::format("the leaf size is {}: expected at least 1 particle", leaf_size));
  }
}

Cube bounding_cube(std::span<const Particle> particles) {
  float lo[3] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                 std::numeric_limits<float>::max()};
  float hi[3] = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest(),
                 std::numeric_limits<float>::lowest()};
  for (const Particle& p : particles) {
    const float c[3] = {p.x, p.y, p.z};
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], c[d]);
      hi[d] = std::max(hi[d], c[d]);
    }
  }
  Cube cube{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2, 0};
  for (int d = 0; d < 3; ++d) cube.half = std::max(cube.half, (hi[d] - lo[d]) / 2);
  // A little slack, so that rounding in the centre does not leave an extreme particle outside.
  cube.half = cube.half * 1.0001f + std::numeric_limits<float>::min();
  return cube;
}

namespace detail {
namespace {

// 64-bit finalizer of MurmurHash3: spreads (key, id) over the whole word.
std::uint64_t mix(std::uint64_t x) noexcept {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

}  // namespace

std::array<Octant, 8> split(std::span<Particle> particles, const Octant& octant) {
  const Cube& c = octant.cube;
  Particle* const first = particles.data() + octant.begin;
  Particle* const last = particles.data() + octant.end;
  // Bounds of the children's ranges: x halves, then y quarters, then z eighths.
  Particle* const x_mid = std::partition(first, last, [&](const Particle& p) { return p.x < c.cx; });
  Particle* const y_mid[2] = {std::partition(first, x_mid, [&](const Particle& p) { return p.y < c.cy; }),
                              std::partition(x_mid, last, [&](const Particle& p) { return p.y < c.cy; })};
  Particle* const bounds[9] = {
      first,
      std::partition(first, y_mid[0], [&](const Particle& p) { return p.z < c.cz; }),
      y_mid[0],
      std::partition(y_mid[0], x_mid, [&](const Particle& p) { return p.z < c.cz; }),
      x_mid,
      std::partition(x_mid, y_mid[1], [&](const Particle& p) { return p.z < c.cz; }),
      y_mid[1],
      std::partition(y_mid[1], last, [&](const Particle& p) { return p.z < c.cz; }),
      last};
  const float quarter = c.half / 2;
  std::array<Octant, 8> children;
  for (int k = 0; k < 8; ++k) {
    Octant& child = children[static_cast<std::size_t>(k)];
    child.cube = Cube{c.cx + ((k & 4) != 0 ? quarter : -quarter), c.cy + ((k & 2) != 0 ? quarter : -quarter),
                      c.cz + ((k & 1) != 0 ? quarter : -quarter), quarter};
    child.begin = static_cast<std::uint32_t>(bounds[k] - particles.data());
    child.end = static_cast<std::uint32_t>(bounds[k + 1] - particles.data());
    child.key = octant.key << 3 | static_cast<std::uint64_t>(k);
    child.depth = octant.depth + 1;
  }
  return children;
}

void LeafTally::add(std::span<const Particle> particles, const Octant& leaf, bool keep) {
  ++leaves_;
  depth_ = std::max(depth_, leaf.depth);
  particles_ += leaf.size();
  const std::uint64_t salt = leaf.key * 0x9e3779b97f4a7c15ULL;
  for (std::uint32_t i = leaf.begin; i < leaf.end; ++i) checksum_ += mix(salt ^ particles[i].id);
  if (keep) list_.push_back(Leaf{leaf.key, leaf.begin, leaf.end, leaf.depth, leaf.cube});
}

void LeafTally::merge(const LeafTally& other) {
  leaves_ += other.leaves_;
  depth_ = std::max(depth_, other.depth_);
  checksum_ += other.checksum_;
  particles_ += other.particles_;
  list_.insert(list_.end(), other.list_.begin(), other.list_.end());
}

OctreeResult LeafTally::result() const {
  OctreeResult result;
  result.leaves = leaves_;
  result.depth = depth_;
  result.checksum = checksum_;
  result.particles_in_leaves = particles_;
  result.leaf_list = list_;
  std::sort(result.leaf_list.begin(), result.leaf_list.end(),
            [](const Leaf& a, const Leaf& b) { return a.begin < b.begin; });
  return result;
}

}  // namespace detail
}  // namespace tessera::octree
