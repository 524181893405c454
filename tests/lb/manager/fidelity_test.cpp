// Fidelity: TemperedLB in deterministic mode balances a live 4-rank run with LB
// data output on; each rank then replays the dumped phase in lbsim's engine (virtual ranks, the
// same strategy code) with the same keys and seed, and the plans must be identical, as must the
// loads the live strategy saw and the loads the dump holds.
#include <tessera/lb/lb_data_io.hpp>
#include <tessera/lb/registry.hpp>
#include <tessera/lbsim/simulation.hpp>
#include <tessera/tessera.hpp>

#include <gtest/gtest.h>

#include "../../support/rank_failure_printer.hpp"
#include <mpi.h>

#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace tessera::collections;

constexpr std::int64_t kPerRank = 8;
const std::string kArgs = "deterministic=true seed=11 fanout=2 iters=4 trials=2";

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Busy for a CPU time that grows with the element id, so the ranks with high ids are overloaded.
struct Worker : Element<Worker, 1> {
  double sink = 0.0;
  void work() {
    const double until = cpu_now() + 2e-4 * static_cast<double>(1 + index()[0] / 4);
    while (cpu_now() < until) sink += 1e-9;
  }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sink);
  }
};

std::filesystem::path scratch() {
  return std::filesystem::temp_directory_path() / ("tessera_lbman_fidelity_" + std::to_string(::getppid()));
}

TEST(Fidelity, LiveTemperedPlanEqualsTheLbsimReplayOfTheDump) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<std::string> flags = {"fidelity", "--tessera_lb_load_clock=cpu", "--tessera_lb_data",
                                    "--tessera_lb_data_dir=" + scratch().string(), "--tessera_lb_name=TemperedLB",
                                    "--tessera_lb_args=" + kArgs, "--tessera_lb_interval=1000"};
  std::vector<char*> argv;
  for (auto& f : flags) argv.push_back(f.data());
  int argc = static_cast<int>(argv.size());
  char** args = argv.data();

  tessera::lb::Plan live;
  tessera::lb::StrategyInput seen;
  std::int64_t balanced_phase = -1;
  {
    tessera::Context ctx(argc, args, MPI_COMM_WORLD);
    auto workers = make_collection<Worker>(ctx.runtime(), {kPerRank * ctx.runtime().size()});
    if (rank == 0) workers.broadcast_from_this_rank<&Worker::work>();
    balanced_phase = ctx.phase_end().phase;  // phase 0: 0 % 1000 == 0, so it balances
    live = ctx.lb().last_plan();
    seen = ctx.lb().last_input();
    workers.destroy();
  }  // the Context writes the LB data here
  MPI_Barrier(MPI_COMM_WORLD);
  ASSERT_EQ(balanced_phase, 0);

  const tessera::lb::LbData data = tessera::lb::read_lb_data(scratch() / "data");
  const auto inputs = tessera::lbsim::phase_inputs(data, balanced_phase);
  ASSERT_EQ(inputs.size(), 4u);
  // What the live strategy saw is what the dump holds, to the last bit.
  const auto& dumped = inputs[static_cast<std::size_t>(rank)];
  ASSERT_EQ(seen.objects.size(), dumped.objects.size());
  for (std::size_t i = 0; i < seen.objects.size(); ++i) {
    EXPECT_EQ(seen.objects[i].id, dumped.objects[i].id);
    EXPECT_EQ(seen.objects[i].load, dumped.objects[i].load);
    EXPECT_EQ(seen.objects[i].migratable, dumped.objects[i].migratable);
  }

  auto strategy = tessera::lb::Registry::builtin().create("TemperedLB", kArgs);
  // The replay runs on the node map the job wrote (metadata.shared_node), as the live run did.
  ASSERT_EQ(data.node_map().node.size(), 4u);
  const auto replay = tessera::lbsim::simulate(strategy.get(), inputs, tessera::lbsim::WorkModel{}, data.node_map());
  EXPECT_FALSE(replay.plan.migrations.empty()) << "the skewed load should make TemperedLB move objects";
  std::vector<tessera::lb::Migration> mine;
  for (const auto& m : replay.plan.migrations)
    if (m.from == rank) mine.push_back(m);
  EXPECT_EQ(live.migrations, mine);
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ::testing::InitGoogleTest(&argc, argv);
  tessera::testing::quiet_other_ranks(rank);
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::filesystem::remove_all(scratch());
  MPI_Finalize();
  return any;
}
