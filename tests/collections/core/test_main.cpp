// GoogleTest main for collection tests: one runtime per process, element loads on the thread
// CPU clock (ranks share cores under oversubscription). Every rank runs every test in order.
#include <tessera/collections.hpp>
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  tessera::collections::PhaseManager::install(rt, tessera::collections::LoadClock::cpu);
  ::testing::InitGoogleTest(&argc, argv);
  if (rt.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  return rt.collectives().allreduce(failed, tessera::op::max{});
}
