// GoogleTest main for multi-rank tests: one Tessera runtime per process for the whole run.
// Every rank runs every test in the same order, so collective calls inside tests match up.
// Only rank 0 prints GoogleTest's progress; a failure on any rank fails the process.
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include "rank_failure_printer.hpp"
#include "test_runtime.hpp"

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  const tessera::testing::MainRuntime main_runtime(rt);
  ::testing::InitGoogleTest(&argc, argv);
  tessera::testing::quiet_other_ranks(rt.rank());
  const int failed = RUN_ALL_TESTS();
  const int any_failed = rt.collectives().allreduce(failed, tessera::op::max{});
  return any_failed;
}
