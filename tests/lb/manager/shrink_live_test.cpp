// Elastic shrink's plan (lb/evacuate.hpp) over the live backend, one rank per MPI process: the
// same plans as over virtual ranks, each rank holding the moves of its own objects. Run on 3 and
// 4 ranks; each case runs where its rank count matches.
#include <tessera/lb/evacuate.hpp>
#include <tessera/lb/greedy_lb.hpp>
#include <tessera/lb/manager/live_backend.hpp>
#include <tessera/lb/registry.hpp>
#include <tessera/lb/virtual_backend.hpp>
#include <tessera/runtime/collectives.hpp>

#include <gtest/gtest.h>

#include "live_main.hpp"

#include <set>

#include "../support/lb_inputs.hpp"

namespace tessera::lb {
namespace {

using testing::make_ranks;
using testing::mark_leaving;
using testing::move;

using live_testing::services;

Plan shrink_live(Strategy& strategy, const std::vector<StrategyInput>& ranks) {
  lb::LiveBackend backend(*services().runtime, *services().termination);
  const auto rank = static_cast<std::size_t>(services().runtime->rank());
  return run_shrinking(strategy, backend, std::span<const StrategyInput>(&ranks[rank], 1));
}

std::vector<Migration> from_here(std::vector<Migration> moves) {
  const Rank rank = services().runtime->rank();
  std::erase_if(moves, [&](const Migration& m) { return m.from != rank; });
  return moves;
}

TEST(ShrinkLive, GreedyLBEvacuatesThenBalancesExactly) {
  if (services().runtime->size() != 3) GTEST_SKIP() << "a 3-rank case";
  auto ranks = make_ranks({{4, 1}, {3, 2}, {1}});
  mark_leaving(ranks, {1});
  GreedyLB greedy;
  EXPECT_EQ(shrink_live(greedy, ranks).migrations, from_here({move(3, 1, 2), move(4, 1, 2), move(5, 2, 0)}));
}

TEST(ShrinkLive, EveryDeterministicStrategyGivesTheVirtualPlan) {
  if (services().runtime->size() != 4) GTEST_SKIP() << "a 4-rank case";
  auto ranks = make_ranks({{5, 1, 1, 0.5}, {2, 2, 2, 1.5, 1}, {0.5}, {3, 0.25, 0.25}});
  mark_leaving(ranks, {1});
  for (const auto& [name, args] : {std::pair<const char*, const char*>{"GreedyLB", ""},
                                   {"HierLB", "branching=2"},
                                   {"TemperedLB", "deterministic=true"}}) {
    SCOPED_TRACE(name);
    auto strategy = Registry::builtin().create(name, args);
    comm::VirtualBackend virtual_ranks(4);
    const Plan expected = run_shrinking(*strategy, virtual_ranks, ranks);
    for (const Migration& m : expected.migrations) EXPECT_NE(m.to, 1);
    EXPECT_EQ(shrink_live(*strategy, ranks).migrations, from_here(expected.migrations));
  }
}

}  // namespace
}  // namespace tessera::lb

int main(int argc, char** argv) { return tessera::lb::live_testing::run_all_tests(argc, argv); }
