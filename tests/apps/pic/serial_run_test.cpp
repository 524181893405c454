#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/pic/serial_run.hpp"

namespace tessera::pic {
namespace {

struct Layout {
  std::int64_t tiles_x;
  std::int64_t tiles_y;
};

const std::vector<Layout> kLayouts = {{1, 1}, {2, 1}, {1, 3}, {3, 2}, {4, 4}, {8, 5}};

std::vector<Problem> problems() {
  std::vector<Problem> list;
  for (const Distribution& d : {Distribution::geometric(0.9), Distribution::sinusoidal(),
                                Distribution::linear(1.0, 2.0), Distribution::patch_of({3, 10, 20, 29})}) {
    Problem p;
    p.grid_size = 40;
    p.particles = 3000;
    p.k = 1;
    p.m = -2;
    p.distribution = d;
    list.push_back(p);
  }
  list.back().k = 0;  // PATCH drifting diagonally, as in the default input
  list.back().m = 1;
  return list;
}

void expect_same(const std::vector<Particle>& a, const std::vector<Particle>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].id, b[i].id) << what;
    ASSERT_EQ(a[i].x, b[i].x) << what << ", particle " << a[i].id;
    ASSERT_EQ(a[i].y, b[i].y) << what << ", particle " << a[i].id;
    ASSERT_EQ(a[i].vx, b[i].vx) << what << ", particle " << a[i].id;
    ASSERT_EQ(a[i].vy, b[i].vy) << what << ", particle " << a[i].id;
    ASSERT_EQ(a[i].q, b[i].q) << what << ", particle " << a[i].id;
  }
}

TEST(PicSerialRun, InitialParticlesDoNotDependOnTheDecomposition) {
  for (const Problem& p : problems()) {
    const std::vector<Particle> reference = sorted_by_id(make_tiles(p, TileGrid(p.grid_size, 1, 1)));
    ASSERT_GT(reference.size(), 1000U) << p.distribution.describe();
    for (std::size_t i = 0; i < reference.size(); ++i) {
      ASSERT_EQ(reference[i].id, i + 1) << "ids must be 1..N";
    }
    for (const Layout& l : kLayouts) {
      const TileGrid grid(p.grid_size, l.tiles_x, l.tiles_y);
      expect_same(sorted_by_id(make_tiles(p, grid)), reference,
                  p.distribution.describe() + " on " + std::to_string(l.tiles_x) + " x " + std::to_string(l.tiles_y));
    }
  }
}

TEST(PicSerialRun, ParticlesAreCreatedOnlyWhereTheDistributionAllows) {
  const Problem patch = problems().back();
  for (const Particle& q : sorted_by_id(make_tiles(patch, TileGrid(patch.grid_size, 3, 2)))) {
    ASSERT_TRUE(patch.distribution.patch.contains(static_cast<std::int64_t>(q.x), static_cast<std::int64_t>(q.y)));
  }
}

TEST(PicSerialRun, ValidatesOnEveryDistributionAndLayout) {
  const std::int64_t steps = 25;
  for (const Problem& p : problems()) {
    std::vector<Particle> reference;
    for (const Layout& l : kLayouts) {
      const std::string what =
          p.distribution.describe() + " on " + std::to_string(l.tiles_x) + " x " + std::to_string(l.tiles_y);
      SerialRun run(p, TileGrid(p.grid_size, l.tiles_x, l.tiles_y));
      for (std::int64_t s = 0; s < steps; ++s) {
        run.step();
      }
      const Verification v = run.verify();
      EXPECT_EQ(v.count, run.placed()) << what;
      EXPECT_EQ(v.misplaced, 0U) << what;
      EXPECT_EQ(v.id_sum, id_checksum(run.placed())) << what;
      EXPECT_TRUE(v.passed(run.placed())) << what;
      // Each particle's trajectory is its own, so every layout ends bit-for-bit the same.
      const std::vector<Particle> final_particles = sorted_by_id(run.tiles());
      if (reference.empty()) {
        reference = final_particles;
      } else {
        expect_same(final_particles, reference, what);
      }
    }
  }
}

TEST(PicSerialRun, VerificationCatchesALostOrMisplacedParticle) {
  const Problem p = problems()[1];
  SerialRun run(p, TileGrid(p.grid_size, 2, 2));
  run.step();
  const Verification v = run.verify();
  EXPECT_FALSE(v.passed(run.placed() + 1)) << "a particle missing";
  Verification shifted = v;
  shifted.misplaced = 1;
  EXPECT_FALSE(shifted.passed(run.placed()));
  Verification wrong_ids = v;
  wrong_ids.id_sum += 1;
  EXPECT_FALSE(wrong_ids.passed(run.placed()));
  // Checking after the wrong number of steps misplaces every particle.
  const Tile& tile = run.tiles()[0];
  EXPECT_EQ(tile.verify(p, 2).misplaced, tile.size());
}

TEST(PicSerialRun, IdChecksumIsExactModulo2To64) {
  EXPECT_EQ(id_checksum(0), 0U);
  EXPECT_EQ(id_checksum(1), 1U);
  EXPECT_EQ(id_checksum(4), 10U);
  EXPECT_EQ(id_checksum(104740), 104740ULL * 104741ULL / 2);
  const std::uint64_t big = 1ULL << 33;
  EXPECT_EQ(id_checksum(big), (big / 2) * (big + 1));
}

}  // namespace
}  // namespace tessera::pic
