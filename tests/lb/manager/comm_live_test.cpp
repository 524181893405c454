// The typed communication suite (tests/lb/core/comm_suite.hpp) over the live backend: one rank
// per MPI process, messages as runtime active messages, quiet = the end of a collective epoch.
#include "../core/comm_suite.hpp"

#include <tessera/lb/manager/live_backend.hpp>
#include <tessera/runtime/collectives.hpp>

#include <gtest/gtest.h>

#include "live_main.hpp"

namespace tessera::lb::comm::testing {
namespace {

using live_testing::services;

struct LiveFactory {
  static std::unique_ptr<Backend> make() {
    return std::make_unique<lb::LiveBackend>(*services().runtime, *services().termination);
  }
};

}  // namespace

INSTANTIATE_TYPED_TEST_SUITE_P(Live, CommSuite, LiveFactory);

namespace {

TEST(LiveBackend, EveryMessageOfAStepIsHandledBeforeQuietReturns) {
  lb::LiveBackend backend(*services().runtime, *services().termination);
  Team<CascadeRank> team(backend, [](Rank) { return CascadeRank{}; });
  const auto h = team.handler<&CascadeRank::on_spawn>();
  // Two rounds through the same backend: the second epoch starts where the first ended.
  for (int round = 1; round <= 2; ++round) {
    team.step([&](CascadeRank& self, Communicator& ctx) {
      self.spawn = h;
      ctx.send((ctx.rank() + 1) % ctx.size(), h, Spawn{3});
    });
    team.run_until_quiet();
    // Summed, because a faster rank's next round may already have reached this rank: a rank's
    // contribution is taken before any rank can start the next round.
    EXPECT_EQ(team.allreduce(ReduceOp::sum, [](CascadeRank& self) { return self.handled; }),
              std::int64_t{round} * 15 * team.size());
  }
}

}  // namespace
}  // namespace tessera::lb::comm::testing

int main(int argc, char** argv) { return tessera::lb::live_testing::run_all_tests(argc, argv); }
