// Flags are parsed once, at start-up: the LB interval, the load model, the strategy with its keys,
// the schedule file and the steal keys become typed values then, and no phase parses them again.
// Each group counts the values it parsed (FlagGroup::parses), and the LB manager counts the
// strategy arguments it parsed itself: over phases that balance, neither count may grow.
#include <tessera/tessera.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../../support/rank_failure_printer.hpp"

namespace {

using namespace tessera::collections;

struct Cell : Element<Cell, 1> {
  long hits = 0;
  void hit() { ++hits; }
  template <class Archive> void serialize(Archive& ar) { ar(hits); }
};

// Runs `phases` phases of a small collection, each ending with phase_end; returns the phases that
// balanced.
int run_phases(tessera::Context& ctx, int phases) {
  auto cells = ctx.make_collection<Cell>({16});
  int balanced = 0;
  for (int p = 0; p < phases; ++p) {
    if (ctx.runtime().rank() == 0) cells.broadcast_from_this_rank<&Cell::hit>();
    ctx.phase_end();
    if (ctx.lb().last_report()) ++balanced;
  }
  return balanced;
}

TEST(FlagParses, TheLbFlagsAreParsedOnceAndNotAtAnyPhase) {
  tessera::Context ctx(std::vector<std::string>{"flag_parses_test", "--tessera_lb_name=GreedyLB",
                                                "--tessera_lb_args=mode=full", "--tessera_lb_interval=2",
                                                "--tessera_lb_model=median:3", "--tessera_steal_policy=random",
                                                "--tessera_steal_args=w=2"},
                       MPI_COMM_WORLD);
  // The interval, the model and the strategy with its keys: one parse each.
  EXPECT_EQ(ctx.lb_flags().parses(), 3);
  EXPECT_EQ(ctx.steal_flags().parses(), 2);  // the policy and the keys
  EXPECT_TRUE(ctx.lb_flags().given("--tessera_lb_interval"));
  EXPECT_FALSE(ctx.lb_flags().given("--tessera_lb_file"));
  EXPECT_EQ(ctx.lb_flags().every(), 2);
  EXPECT_EQ(run_phases(ctx, 8), 4);  // phases 0, 2, 4 and 6 balance
  EXPECT_EQ(ctx.lb_flags().parses(), 3);
  EXPECT_EQ(ctx.steal_flags().parses(), 2);
  EXPECT_EQ(ctx.lb().argument_parses(), 0);
  (void)ctx.steal().options();
  EXPECT_EQ(ctx.steal_flags().parses(), 2);
  EXPECT_TRUE(ctx.finalize().ok);
}

TEST(FlagParses, AScheduleFileIsReadOnceAndARequestFromCodeParsesItsOwnArguments) {
  std::string path = (std::filesystem::temp_directory_path() / "tessera_flag_parses_schedule").string();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Two appends, not `"." + std::to_string(rank)`: GCC 12 warns (-Wrestrict) on that operator+ by
  // mistake (its bug 105329).
  path += '.';
  path += std::to_string(rank);
  std::ofstream(path) << "%3 RotateLB\n1 GreedyLB mode=full\n";
  tessera::Context ctx(std::vector<std::string>{"flag_parses_test", "--tessera_lb_file=" + path}, MPI_COMM_WORLD);
  EXPECT_EQ(ctx.lb_flags().parses(), 3);  // the interval (its default, 1), the model and the schedule
  EXPECT_EQ(run_phases(ctx, 7), 4);        // phases 0, 1, 3 and 6
  EXPECT_EQ(ctx.lb_flags().parses(), 3);
  EXPECT_EQ(ctx.lb().argument_parses(), 0);
  ctx.lb().request("GreedyLB", "mode=full");  // code, not a flag: parsed when asked
  EXPECT_EQ(ctx.lb().argument_parses(), 1);
  EXPECT_TRUE(ctx.finalize().ok);
  std::filesystem::remove(path);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  tessera::testing::quiet_other_ranks(rank);
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
