#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/pic/driver/modes.hpp"
#include <tessera/runtime/error.hpp>
#include "tessera/pic/lcg.hpp"
#include "tessera/pic/serial_run.hpp"

namespace tessera::pic::driver {
namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

Options small_options(const Distribution& distribution) {
  Options o;
  o.problem.grid_size = 24;
  o.problem.particles = 2000;
  o.problem.k = 1;
  o.problem.m = -1;
  o.problem.distribution = distribution;
  o.steps = 20;
  o.print_every = 0;
  o.json = true;  // keeps the test output free of the run's tables
  return o;
}

// Reads a --dump_particles file back: id x y vx vy per line after one header line.
std::vector<Particle> read_dump(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<Particle> particles;
  Particle p;
  while (in >> p.id >> p.x >> p.y >> p.vx >> p.vy) {
    particles.push_back(p);
  }
  return particles;
}

TEST(PicSpmd, ValidatesAndMatchesTheSerialReferenceOnEveryDistribution) {
  const std::string dump = "pic_spmd_test_dump_" + std::to_string(world_size()) + ".txt";
  for (const Distribution& d : {Distribution::geometric(0.95), Distribution::sinusoidal(),
                                Distribution::linear(1.0, 1.5), Distribution::patch_of({0, 5, 0, 5})}) {
    Options o = small_options(d);
    o.dump_particles = dump;
    const RunSummary s = run_spmd(o, MPI_COMM_WORLD);
    SerialRun reference(o.problem, TileGrid(o.problem.grid_size, 1, 1));
    for (std::int64_t step = 0; step < o.steps; ++step) {
      reference.step();
    }
    EXPECT_TRUE(s.validated) << d.describe();
    EXPECT_EQ(s.particles, reference.placed()) << d.describe();
    EXPECT_EQ(s.ranks, world_size());
    EXPECT_EQ(s.mode, "spmd");
    EXPECT_EQ(s.lb, "none");
    if (world_rank() == 0) {
      EXPECT_EQ(s.per_step.size(), static_cast<std::size_t>(o.steps));
      const std::vector<Particle> dumped = read_dump(dump);
      const std::vector<Particle> expected = sorted_by_id(reference.tiles());
      ASSERT_EQ(dumped.size(), expected.size()) << d.describe();
      for (std::size_t i = 0; i < dumped.size(); ++i) {
        ASSERT_EQ(dumped[i].id, expected[i].id) << d.describe();
        ASSERT_EQ(dumped[i].x, expected[i].x) << d.describe() << ", particle " << dumped[i].id;
        ASSERT_EQ(dumped[i].y, expected[i].y) << d.describe() << ", particle " << dumped[i].id;
        ASSERT_EQ(dumped[i].vx, expected[i].vx) << d.describe() << ", particle " << dumped[i].id;
        ASSERT_EQ(dumped[i].vy, expected[i].vy) << d.describe() << ", particle " << dumped[i].id;
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (world_rank() == 0) {
    std::remove(dump.c_str());
  }
}

// The most square rank layout, written out for the sizes this test runs on.
std::pair<std::int64_t, std::int64_t> expected_layout(int ranks) {
  switch (ranks) {
    case 1:
      return {1, 1};
    case 2:
      return {2, 1};
    case 4:
      return {2, 2};
    default:
      return {ranks, 1};
  }
}

TEST(PicSpmd, ParticleImbalanceMatchesIndependentCountsOnAPatch) {
  Options o = small_options(Distribution::patch_of({2, 9, 1, 6}));
  o.problem.k = 0;
  o.problem.m = 1;
  o.steps = 30;
  const RunSummary s = run_spmd(o, MPI_COMM_WORLD);
  ASSERT_TRUE(s.validated);
  if (world_rank() != 0) {
    return;
  }
  // Count particles per cell straight from the generator, drift them analytically (one cell in x
  // and in y per step), and bin them by rank with the block formula of an even split.
  const std::int64_t L = o.problem.grid_size;
  const Patch& box = o.problem.distribution.patch;
  const double mu = static_cast<double>(o.problem.particles) / static_cast<double>(box.cells());
  const auto [px, py] = expected_layout(world_size());
  auto block = [L](std::int64_t cell, std::int64_t blocks) {
    std::int64_t b = 0;
    while ((b + 1) * L / blocks <= cell) {
      ++b;
    }
    return b;
  };
  ASSERT_EQ(s.per_step.size(), static_cast<std::size_t>(o.steps));
  double mean = 0.0;
  for (std::int64_t step = 1; step <= o.steps; ++step) {
    std::vector<double> per_rank(static_cast<std::size_t>(px * py), 0.0);
    for (std::int64_t x = box.left; x <= box.right; ++x) {
      for (std::int64_t y = box.bottom; y <= box.top; ++y) {
        Lcg lcg = Lcg::at(2 * static_cast<std::uint64_t>(y + x * L));
        const auto count = static_cast<double>(draw_count(mu, lcg));
        const std::int64_t cx = (x + step - 1) % L;  // where the step's mover finds them
        const std::int64_t cy = (y + step - 1) % L;
        per_rank[static_cast<std::size_t>(block(cx, px) + block(cy, py) * px)] += count;
      }
    }
    const double max = *std::max_element(per_rank.begin(), per_rank.end());
    double sum = 0.0;
    for (double c : per_rank) {
      sum += c;
    }
    const double expected = max / (sum / static_cast<double>(per_rank.size())) - 1.0;
    EXPECT_NEAR(s.per_step[static_cast<std::size_t>(step - 1)].particle_imbalance, expected, 1e-12) << "step " << step;
    mean += expected;
  }
  EXPECT_NEAR(s.mean_particle_imbalance, mean / static_cast<double>(o.steps), 1e-12);
  if (world_size() == 4) {
    // The 8 x 6 patch starts inside rank 0's 12 x 12 tile: one rank holds every particle.
    EXPECT_DOUBLE_EQ(s.per_step[0].particle_imbalance, 3.0);
  }
}

TEST(PicSpmd, TilesSmallerThanTheTravelFailOnEveryRankBeforeAnyStep) {
  Options o = small_options(Distribution::sinusoidal());
  o.problem.grid_size = 4;
  o.problem.k = 1;  // 3 cells per step; with 2 or more ranks a tile is only 2 cells wide
  if (world_size() == 1) {
    EXPECT_TRUE(run_spmd(o, MPI_COMM_WORLD).validated);
    return;
  }
  EXPECT_THROW(run_spmd(o, MPI_COMM_WORLD), InputError);
}

}  // namespace
}  // namespace tessera::pic::driver
