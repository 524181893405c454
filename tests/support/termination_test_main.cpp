// GoogleTest main for multi-rank tests that need epochs: one runtime and one termination layer per
// process; the job fails if any rank's tests failed.
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <gtest/gtest.h>

#include "rank_failure_printer.hpp"
#include "test_runtime.hpp"

int main(int argc, char** argv) {
  tessera::TerminationFlags termination_flags;
  tessera::RuntimeOptions options;
  options.flag_groups = {&termination_flags};
  tessera::Runtime rt(argc, argv, options);
  tessera::Termination termination(rt, termination_flags);
  const tessera::testing::MainRuntime main_runtime(rt);
  ::testing::InitGoogleTest(&argc, argv);
  tessera::testing::quiet_other_ranks(rt.rank());
  const int failed = RUN_ALL_TESTS();
  return rt.collectives().allreduce(failed, tessera::op::max{});
}
