// Interop: the application's MPI collectives and Tessera's messages alternate without
// cross-talk, because Tessera runs on its own duplicate of the communicator.
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include "../../support/test_runtime.hpp"

namespace {

long interop_received = 0;
void add_value(long v) { interop_received += v; }

TEST(Interop, AlternatesMpiAllreduceWithTesseraWork) {
  auto& rt = tessera::testing::runtime();
  interop_received = 0;
  long expected_received = 0;
  for (int iter = 0; iter < 100; ++iter) {
    // SPMD region on the application's communicator.
    long mine = iter + rt.rank();
    long global = 0;
    MPI_Allreduce(&mine, &global, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    ASSERT_EQ(global, static_cast<long>(iter) * rt.size() + rt.size() * (rt.size() - 1) / 2);
    // Task region: messages in flight while the next MPI collective is entered elsewhere.
    for (int d = 0; d < rt.size(); ++d) rt.send<&add_value>(d, global + d);
    expected_received += rt.size() * (global + rt.rank());
    rt.drain();
  }
  EXPECT_EQ(interop_received, expected_received);
  int app_rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &app_rank);
  EXPECT_EQ(app_rank, rt.rank());
  int compare = 0;
  MPI_Comm_compare(MPI_COMM_WORLD, rt.comm(), &compare);
  EXPECT_EQ(compare, MPI_CONGRUENT);  // a duplicate: same group, separate matching context
}

}  // namespace
