// The AMT mode under mpirun: colors in a Tessera collection must validate on every distribution and
// end with exactly the particles of the SPMD mode (the dumps, sorted by id, are equal byte for byte).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tessera/pic/driver/modes.hpp"

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

// 24 x 24 cells, 4 colors per rank: on 4 ranks 4 x 4 colors of 6 x 6 cells, wider than the
// 3 cells a particle travels in x per step (k = 1).
Options small_options(const Distribution& distribution) {
  Options o;
  o.problem.grid_size = 24;
  o.problem.particles = 2000;
  o.problem.k = 1;
  o.problem.m = -1;
  o.problem.distribution = distribution;
  o.steps = 12;
  o.print_every = 0;
  o.json = true;
  o.colors_per_rank = 4;
  return o;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string dump_name(const std::string& mode) {
  return "pic_amt_test_" + mode + "_" + std::to_string(world_size()) + ".txt";
}

TEST(PicAmt, ValidatesAndMatchesSpmdOnEveryDistribution) {
  for (const Distribution& d : {Distribution::geometric(0.95), Distribution::sinusoidal(),
                                Distribution::linear(1.0, 1.5), Distribution::patch_of({0, 5, 0, 5})}) {
    Options o = small_options(d);
    o.dump_particles = dump_name("spmd");
    const RunSummary spmd = run_spmd(o, MPI_COMM_WORLD);
    o.dump_particles = dump_name("amt");
    const RunSummary amt = run_amt(o, MPI_COMM_WORLD);
    EXPECT_TRUE(spmd.validated) << d.describe();
    EXPECT_TRUE(amt.validated) << d.describe();
    EXPECT_EQ(amt.mode, "amt");
    EXPECT_EQ(amt.lb, "none");
    EXPECT_EQ(amt.ranks, world_size());
    EXPECT_EQ(amt.particles, spmd.particles) << d.describe();
    EXPECT_EQ(amt.migrations, 0U) << d.describe();
    if (world_rank() == 0) {
      EXPECT_EQ(amt.per_step.size(), static_cast<std::size_t>(o.steps));
      const std::string expected = slurp(dump_name("spmd"));
      EXPECT_GT(expected.size(), 100U) << d.describe();
      EXPECT_EQ(slurp(dump_name("amt")), expected) << d.describe();
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (world_rank() == 0) {
    std::remove(dump_name("spmd").c_str());
    std::remove(dump_name("amt").c_str());
  }
}

TEST(PicAmt, ParticlesMovedPerStepMatchSpmdOnTheDriftingPatch) {
  // Without balancing every color stays on its home rank, whose block is the SPMD tile of that
  // rank: the particles each rank moves, and so their imbalance, are the SPMD mode's exactly.
  Options o = small_options(Distribution::patch_of({2, 9, 1, 6}));
  o.problem.k = 0;
  o.problem.m = 1;
  const RunSummary spmd = run_spmd(o, MPI_COMM_WORLD);
  const RunSummary amt = run_amt(o, MPI_COMM_WORLD);
  ASSERT_TRUE(amt.validated);
  if (world_rank() != 0) {
    return;
  }
  ASSERT_EQ(amt.per_step.size(), spmd.per_step.size());
  for (std::size_t s = 0; s < amt.per_step.size(); ++s) {
    EXPECT_EQ(amt.per_step[s].particle_imbalance, spmd.per_step[s].particle_imbalance) << "step " << s + 1;
  }
}

TEST(PicAmt, ManyColorsPerRankStillValidate) {
  Options o = small_options(Distribution::sinusoidal());
  o.problem.k = 0;
  o.colors_per_rank = 9;  // 3 x 3 colors per rank block
  EXPECT_TRUE(run_amt(o, MPI_COMM_WORLD).validated);
}

class PicAmtBalanced : public ::testing::TestWithParam<const char*> {};

TEST_P(PicAmtBalanced, MigratesColorsAndStillEndsWithTheSpmdParticles) {
  const std::string strategy = GetParam();
  for (const Distribution& d : {Distribution::patch_of({0, 7, 0, 7}), Distribution::geometric(0.9)}) {
    Options o = small_options(d);
    o.dump_particles = dump_name("spmd_" + strategy);
    ASSERT_TRUE(run_spmd(o, MPI_COMM_WORLD).validated);
    o.dump_particles = dump_name("amt_" + strategy);
    o.tessera_args = {"--tessera_lb_name=" + strategy, "--tessera_lb_load_clock", "cpu"};
    const RunSummary amt = run_amt(o, MPI_COMM_WORLD);
    EXPECT_TRUE(amt.validated) << strategy << ", " << d.describe();
    EXPECT_EQ(amt.lb, strategy);
    if (world_rank() == 0) {
      EXPECT_EQ(slurp(dump_name("amt_" + strategy)), slurp(dump_name("spmd_" + strategy)))
          << strategy << ", " << d.describe();
      std::remove(dump_name("spmd_" + strategy).c_str());
      std::remove(dump_name("amt_" + strategy).c_str());
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Re-cutting (--recut auto) moves particles between colors, across ranks too, and must change
// nothing about them: the run ends with the SPMD run's particles byte for byte. On 24 x 24 cells
// the patch 0-7 starts inside one color of 4 per rank, more than a quarter of a rank's share, so
// the first step re-cuts on every rank count.
TEST_P(PicAmtBalanced, RecutColorsStillEndWithTheSpmdParticles) {
  const std::string strategy = GetParam();
  Options o = small_options(Distribution::patch_of({0, 7, 0, 7}));
  o.dump_particles = dump_name("spmd_recut_" + strategy);
  ASSERT_TRUE(run_spmd(o, MPI_COMM_WORLD).validated);
  o.dump_particles = dump_name("amt_recut_" + strategy);
  o.recut = "auto";
  o.tessera_args = {"--tessera_lb_name=" + strategy, "--tessera_lb_load_clock", "cpu"};
  const RunSummary amt = run_amt(o, MPI_COMM_WORLD);
  EXPECT_TRUE(amt.validated) << strategy;
  EXPECT_GE(amt.recuts, 1) << strategy;
  EXPECT_GE(amt.balanced_phases, 1U) << strategy;
  if (world_rank() == 0) {
    EXPECT_EQ(slurp(dump_name("amt_recut_" + strategy)), slurp(dump_name("spmd_recut_" + strategy))) << strategy;
    std::remove(dump_name("spmd_recut_" + strategy).c_str());
    std::remove(dump_name("amt_recut_" + strategy).c_str());
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// Split and merge: the patch starts inside one color, heavier than a quarter of a rank's
// load, so the first balancing splits it (into pieces down to what the threshold asks); as the
// patch drifts, light halves on one rank merge again. Particle loads make the decisions
// independent of timing. Particles change color, never path: the SPMD run's particles, byte for
// byte, on every rank count and with every balancer.
TEST_P(PicAmtBalanced, SplitAndMergedColorsStillEndWithTheSpmdParticles) {
  const std::string strategy = GetParam();
  Options o = small_options(Distribution::patch_of({0, 7, 0, 7}));
  o.steps = 16;
  o.dump_particles = dump_name("spmd_split_" + strategy);
  ASSERT_TRUE(run_spmd(o, MPI_COMM_WORLD).validated);
  o.dump_particles = dump_name("amt_split_" + strategy);
  o.color_loads = "particles";
  o.tessera_args = {"--tessera_lb_name=" + strategy, "--tessera_lb_split_above=0.25",
                    "--tessera_lb_merge_below=0.5"};
  const RunSummary amt = run_amt(o, MPI_COMM_WORLD);
  EXPECT_TRUE(amt.validated) << strategy;
  EXPECT_GE(amt.splits, 1) << strategy;
  // On one rank every pair of halves is co-located, so merges are certain there.
  if (world_size() == 1) {
    EXPECT_GE(amt.merges, 1) << strategy;
  }
  EXPECT_EQ(amt.balanced_phases, static_cast<std::uint64_t>(o.steps)) << strategy;
  if (world_rank() == 0) {
    EXPECT_EQ(slurp(dump_name("amt_split_" + strategy)), slurp(dump_name("spmd_split_" + strategy))) << strategy;
    std::remove(dump_name("spmd_split_" + strategy).c_str());
    std::remove(dump_name("amt_split_" + strategy).c_str());
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// Without a balancer nothing would balance the new colors, so --recut auto does nothing.
TEST(PicAmt, RecutNeedsABalancer) {
  Options o = small_options(Distribution::patch_of({0, 7, 0, 7}));
  o.recut = "auto";
  const RunSummary amt = run_amt(o, MPI_COMM_WORLD);
  EXPECT_TRUE(amt.validated);
  EXPECT_EQ(amt.recuts, 0);
}

INSTANTIATE_TEST_SUITE_P(EveryBalancer, PicAmtBalanced,
                         ::testing::Values("GreedyLB", "HierLB", "GrapevineLB", "TemperedLB"));

}  // namespace
}  // namespace tessera::pic::driver
