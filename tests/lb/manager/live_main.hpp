#pragma once
// What every live-backend test of the LB layer needs: this process's runtime and termination
// service, set once before any test runs (a suite's factory has no arguments), and the main that
// sets them up and runs gtest on every rank, results printed by rank 0, exit code the worst rank's.
#include <tessera/lb/manager/live_backend.hpp>
#include <tessera/runtime/collectives.hpp>

#include <gtest/gtest.h>

namespace tessera::lb::live_testing {

struct LiveServices {
  Runtime* runtime = nullptr;
  Termination* termination = nullptr;
};

inline LiveServices& services() {
  static LiveServices s;
  return s;
}

inline int run_all_tests(int argc, char** argv) {
  Runtime rt(argc, argv);
  TerminationFlags flags;
  Termination termination(rt, flags);
  services() = {&rt, &termination};
  ::testing::InitGoogleTest(&argc, argv);
  if (rt.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  return rt.collectives().allreduce(failed, op::max{});
}

}  // namespace tessera::lb::live_testing
