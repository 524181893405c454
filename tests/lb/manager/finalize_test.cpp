// Context::finalize(): the end of the run's output is a collective call with one verdict on every
// rank, so a program can exit non-zero when its LB data could not be written; the destructor
// calls it only when the program did not, and never aborts.
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
  double sum = 0.0;
  void add(double v) { sum += v; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sum);
  }
};

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// One directory per job, named by rank 0's parent (mpirun), told to every rank.
std::filesystem::path scratch(const std::string& name) {
  std::int64_t id = ::getppid();
  MPI_Bcast(&id, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return std::filesystem::temp_directory_path() / ("tessera_finalize_" + name + "_" + std::to_string(id));
}

// A context recording LB data into `dir`, after one phase of a small collection.
std::unique_ptr<tessera::Context> one_phase(const std::filesystem::path& dir) {
  auto ctx = std::make_unique<tessera::Context>(
      std::vector<std::string>{"finalize_test", "--tessera_lb_data", "--tessera_lb_data_dir=" + dir.string()},
      MPI_COMM_WORLD);
  auto cells = ctx->make_collection<Cell>({8});
  if (ctx->runtime().rank() == 0) cells.broadcast_from_this_rank<&Cell::add>(1.0);
  ctx->phase_end();
  return ctx;
}

TEST(Finalize, WritesTheLbDataOnceAndReturnsTheSameStatusAgain) {
  const auto dir = scratch("ok");
  auto ctx = one_phase(dir);
  const tessera::FinalizeStatus status = ctx->finalize();
  EXPECT_TRUE(status.ok) << status.message;
  EXPECT_EQ(status.rank, -1);
  EXPECT_TRUE(std::filesystem::exists(dir / fmt::format("data.{}.json", world_rank())));
  const tessera::FinalizeStatus again = ctx->finalize();  // no second write, no collective
  EXPECT_TRUE(again.ok);
  ctx.reset();
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::filesystem::remove_all(dir);
}

TEST(Finalize, AFailedWriteIsOneVerdictOnEveryRankNotAnAbort) {
  const auto dir = scratch("bad");
  auto ctx = one_phase(dir);
  // The directory becomes a plain file before the run's end: no rank can write its file there.
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    std::filesystem::remove_all(dir);
    std::ofstream(dir) << "not a directory\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const tessera::FinalizeStatus status = ctx->finalize();
  EXPECT_FALSE(status.ok);
  EXPECT_EQ(status.rank, 0);  // the lowest failing rank
  if (world_rank() == 0) {
    EXPECT_NE(status.message.find(dir.string()), std::string::npos) << status.message;
  } else {
    EXPECT_EQ(status.message, "rank 0 could not finish the run's output");
  }
  ctx.reset();  // the destructor neither writes again nor aborts
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::filesystem::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  tessera::testing::quiet_other_ranks(world_rank());
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
