// GoogleTest main for collection tests: one runtime per process, element loads on the thread
// CPU clock (ranks share cores under oversubscription). Every rank runs every test in order.
#include <tessera/collections.hpp>
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include "../../support/rank_failure_printer.hpp"
#include "../../support/test_runtime.hpp"

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  tessera::collections::PhaseManager::install(rt, tessera::collections::LoadClock::cpu);
  const tessera::testing::MainRuntime main_runtime(rt);
  ::testing::InitGoogleTest(&argc, argv);
  tessera::testing::quiet_other_ranks(rt.rank());
  const int failed = RUN_ALL_TESTS();
  return rt.collectives().allreduce(failed, tessera::op::max{});
}
