// The octree partitioner of seed 002: exact statistics for fixed seeds, every scheme building
// the sequential run's tree, and every particle in exactly one leaf that contains it.
#include "tessera/octree/partition.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tessera/runtime/error.hpp>

namespace tessera::octree {
namespace {

using collections::steal::WorkPoolScheme;

struct Expected {
  Distribution distribution;
  std::int64_t n;
  std::int64_t leaf_size;
  std::int64_t leaves;
  std::int32_t depth;
  std::uint64_t checksum;
  std::uint64_t splits;
};

// Seed 42; produced by the sequential partitioner, they pin down the particle generator, the
// split rule and the checksum.
const Expected kExpected[] = {
    {Distribution::uniform, 20000, 8, 5183, 5, 0xf219384dae9dd946ULL, 815},
    {Distribution::uniform, 20000, 1, 20000, 11, 0x19df854a03eb8e90ULL, 9439},
    {Distribution::plummer, 20000, 8, 7096, 10, 0x87cc973c5644bbe5ULL, 1197},
    {Distribution::plummer, 1000, 8, 371, 8, 0xddb285493fc3e651ULL, 74},
};

TEST(OctreePartition, SequentialRunGivesTheRecordedStatistics) {
  for (const Expected& e : kExpected) {
    std::vector<Particle> particles = make_particles(e.n, e.distribution, 42);
    const OctreeResult tree = partition_sequential(particles, e.leaf_size);
    const std::string where = std::string(to_string(e.distribution)) + " " + std::to_string(e.n);
    EXPECT_EQ(tree.leaves, e.leaves) << where;
    EXPECT_EQ(tree.depth, e.depth) << where;
    EXPECT_EQ(tree.checksum, e.checksum) << where;
    EXPECT_EQ(tree.splits, e.splits) << where;
    EXPECT_EQ(tree.particles_in_leaves, e.n) << where;
  }
}

// Every particle in exactly one leaf: the leaves' ranges tile the array, the ids are a
// permutation of 0 .. n - 1, and each particle lies in its leaf's cube.
void expect_exact_cover(const std::vector<Particle>& particles, const OctreeResult& tree, const std::string& where) {
  std::uint32_t next = 0;
  for (const Leaf& leaf : tree.leaf_list) {
    ASSERT_EQ(leaf.begin, next) << where;
    ASSERT_GT(leaf.end, leaf.begin) << where;
    next = leaf.end;
    const float slack = 1e-5f * (1 + leaf.cube.half);
    for (std::uint32_t i = leaf.begin; i < leaf.end; ++i) {
      const Particle& p = particles[i];
      EXPECT_LE(std::abs(p.x - leaf.cube.cx), leaf.cube.half + slack) << where;
      EXPECT_LE(std::abs(p.y - leaf.cube.cy), leaf.cube.half + slack) << where;
      EXPECT_LE(std::abs(p.z - leaf.cube.cz), leaf.cube.half + slack) << where;
    }
  }
  EXPECT_EQ(next, particles.size()) << where;
  std::vector<char> seen(particles.size(), 0);
  for (const Particle& p : particles) {
    ASSERT_LT(p.id, particles.size());
    EXPECT_EQ(seen[p.id]++, 0) << where;
  }
}

TEST(OctreePartition, EverySchemeBuildsTheSequentialTree) {
  for (const Distribution distribution : {Distribution::uniform, Distribution::plummer}) {
    for (const std::int64_t leaf_size : {1, 8, 100}) {
      std::vector<Particle> reference_particles = make_particles(30000, distribution, 7);
      const OctreeResult reference = partition_sequential(reference_particles, leaf_size, true);
      expect_exact_cover(reference_particles, reference, "sequential");
      for (const WorkPoolScheme scheme : {WorkPoolScheme::static_assignment, WorkPoolScheme::dynamic}) {
        for (const std::size_t workers : {1u, 2u, 3u}) {
          const std::string where = std::string(to_string(distribution)) + " leaf " + std::to_string(leaf_size) + " " +
                                    to_string(scheme) + " on " + std::to_string(workers);
          std::vector<Particle> particles = make_particles(30000, distribution, 7);
          const TaskOctreeResult result = partition_tasks(particles, leaf_size, scheme, workers, true);
          EXPECT_EQ(result.tree.leaves, reference.leaves) << where;
          EXPECT_EQ(result.tree.depth, reference.depth) << where;
          EXPECT_EQ(result.tree.checksum, reference.checksum) << where;
          EXPECT_EQ(result.tree.splits, reference.splits) << where;
          EXPECT_EQ(result.tree.particles_in_leaves, 30000) << where;
          ASSERT_EQ(result.tree.leaf_list.size(), reference.leaf_list.size()) << where;
          for (std::size_t i = 0; i < reference.leaf_list.size(); ++i) {
            EXPECT_EQ(result.tree.leaf_list[i].key, reference.leaf_list[i].key) << where;
            EXPECT_EQ(result.tree.leaf_list[i].end, reference.leaf_list[i].end) << where;
          }
          // Same reordering of the array, element for element.
          EXPECT_TRUE(std::equal(particles.begin(), particles.end(), reference_particles.begin(),
                                 [](const Particle& a, const Particle& b) { return a.id == b.id; }))
              << where;
        }
      }
    }
  }
}

TEST(OctreePartition, OneParticlePerOctantCentreSplitsOnce) {
  std::vector<Particle> particles;
  for (std::uint32_t k = 0; k < 8; ++k) {
    particles.push_back(Particle{(k & 4) ? 0.75f : 0.25f, (k & 2) ? 0.75f : 0.25f, (k & 1) ? 0.75f : 0.25f, k});
  }
  const OctreeResult tree = partition_sequential(particles, 1, true);
  EXPECT_EQ(tree.leaves, 8);
  EXPECT_EQ(tree.depth, 1);
  EXPECT_EQ(tree.splits, 1u);
  for (std::size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(particles[k].id, k);  // child k holds the particle of octant k
    EXPECT_EQ(tree.leaf_list[k].key, 8 + k);
  }
}

TEST(OctreePartition, CoincidentParticlesStopAtTheDepthLimit) {
  std::vector<Particle> particles(100, Particle{0.5f, 0.5f, 0.5f, 0});
  for (std::uint32_t i = 0; i < particles.size(); ++i) particles[i].id = i;
  for (const WorkPoolScheme scheme : {WorkPoolScheme::static_assignment, WorkPoolScheme::dynamic}) {
    std::vector<Particle> copy = particles;
    const TaskOctreeResult result = partition_tasks(copy, 1, scheme, 2);
    EXPECT_EQ(result.tree.leaves, 1);
    EXPECT_EQ(result.tree.depth, kMaxDepth);
    EXPECT_EQ(result.tree.splits, static_cast<std::uint64_t>(kMaxDepth));
    EXPECT_EQ(result.tree.particles_in_leaves, 100);
  }
}

TEST(OctreePartition, ASetNoLargerThanALeafIsTheRootAlone) {
  std::vector<Particle> particles = make_particles(5, Distribution::uniform, 1);
  const TaskOctreeResult result = partition_tasks(particles, 5, WorkPoolScheme::dynamic, 2);
  EXPECT_EQ(result.tree.leaves, 1);
  EXPECT_EQ(result.tree.depth, 0);
  EXPECT_EQ(result.tree.splits, 0u);
}

TEST(OctreePartition, GeneratedSetsAreReproducibleAndShaped) {
  const std::vector<Particle> a = make_particles(1000, Distribution::plummer, 3);
  const std::vector<Particle> b = make_particles(1000, Distribution::plummer, 3);
  const std::vector<Particle> c = make_particles(1000, Distribution::plummer, 4);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), [](const Particle& p, const Particle& q) {
    return p.x == q.x && p.y == q.y && p.z == q.z && p.id == q.id;
  }));
  EXPECT_NE(a[0].x, c[0].x);
  // A Plummer sphere holds half its mass within r = 1 / sqrt(2^(2/3) - 1) = 1.305.
  const auto inside = std::count_if(a.begin(), a.end(), [](const Particle& p) {
    return std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z) < 1.305f;
  });
  EXPECT_NEAR(static_cast<double>(inside) / 1000, 0.5 / 0.999, 0.05);
  for (const Particle& p : make_particles(1000, Distribution::uniform, 3)) {
    EXPECT_TRUE(p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1 && p.z >= 0 && p.z <= 1);
  }
}

TEST(OctreePartition, RejectsBadSizes) {
  EXPECT_THROW(make_particles(0, Distribution::uniform, 1), tessera::Error);
  std::vector<Particle> particles = make_particles(10, Distribution::uniform, 1);
  EXPECT_THROW(partition_sequential(particles, 0), tessera::Error);
  EXPECT_THROW(partition_tasks(particles, 0, WorkPoolScheme::dynamic, 1), tessera::Error);
  EXPECT_THROW(partition_tasks(particles, 4, WorkPoolScheme::static_assignment, 0), tessera::Error);
  EXPECT_THROW(partition_tasks(std::span<Particle>(), 4, WorkPoolScheme::dynamic, 1), tessera::Error);
}

}  // namespace
}  // namespace tessera::octree
