// TemperedLB's swap moves over the live backend (one rank per MPI process, runtime active messages,
// quiet = the end of a collective epoch): the hand-made cases of tests/lb/tempered/strategy_test.cpp
// give the same exact plans and reports here as over virtual ranks. Run on 2 and 3 ranks; each
// case runs where its rank count matches.
#include <tessera/lb/manager/live_backend.hpp>
#include <tessera/lb/registry.hpp>
#include <tessera/lb/tempered_lb.hpp>
#include <tessera/runtime/collectives.hpp>

#include <gtest/gtest.h>

#include "live_main.hpp"

#include "../support/lb_inputs.hpp"

namespace tessera::lb {
namespace {

using testing::make_ranks;
using testing::move;

using live_testing::services;

// Runs `args` on this process's rank of `ranks`; returns the moves of this rank's objects.
Plan run_live(TemperedLB& lb, const std::vector<StrategyInput>& ranks) {
  lb::LiveBackend backend(*services().runtime, *services().termination);
  const auto rank = static_cast<std::size_t>(services().runtime->rank());
  return lb.run(backend, std::span<const StrategyInput>(&ranks[rank], 1));
}

std::vector<Migration> from_here(std::vector<Migration> moves) {
  const Rank rank = services().runtime->rank();
  std::erase_if(moves, [&](const Migration& m) { return m.from != rank; });
  return moves;
}

TemperedLB create(std::string_view args) {
  auto strategy = Registry::builtin().create("TemperedLB", args);
  return *dynamic_cast<TemperedLB*>(strategy.get());
}

TEST(TemperedSwapLive, AHeavyObjectOneWayTwoLightOnesBack) {
  if (services().runtime->size() != 2) GTEST_SKIP() << "a 2-rank case";
  const auto ranks = make_ranks({{3, 3}, {1, 0.5, 0.5, 1}});
  auto off = create("iters=2 trials=1 deterministic=true swaps=0");
  EXPECT_TRUE(run_live(off, ranks).migrations.empty());
  auto lb = create("iters=2 trials=1 deterministic=true swaps=4");
  EXPECT_EQ(run_live(lb, ranks).migrations, from_here({move(1, 0, 1), move(4, 1, 0), move(6, 1, 0)}));
  ASSERT_EQ(lb.report().iterations.size(), 1u);  // the first reaches the lower bound
  EXPECT_EQ(lb.report().iterations[0].swaps, 1);
  EXPECT_EQ(lb.report().iterations[0].transfers, 3);
  EXPECT_EQ(lb.report().best_imbalance, 0.0);
  EXPECT_TRUE(lb.report().stopped_at_bound);
}

TEST(TemperedSwapLive, OffersAreJudgedMostLoadedSenderFirst) {
  if (services().runtime->size() != 3) GTEST_SKIP() << "a 3-rank case";
  const auto ranks = make_ranks({{4, 4}, {3.5, 3.5}, {1, 1, 1, 1, 0.5, 0.5}});
  auto lb = create("iters=2 trials=1 knowledge=complete deterministic=true swaps=4");
  EXPECT_EQ(run_live(lb, ranks).migrations,
            from_here({move(1, 0, 2), move(7, 2, 0), move(8, 2, 0), move(10, 2, 0)}));
  EXPECT_EQ(lb.report().iterations[0].swaps, 1);
  EXPECT_EQ(lb.report().iterations[0].transfers, 4);
  EXPECT_DOUBLE_EQ(lb.report().best_imbalance, 7.0 / (20.0 / 3.0) - 1.0);
}

}  // namespace
}  // namespace tessera::lb

int main(int argc, char** argv) { return tessera::lb::live_testing::run_all_tests(argc, argv); }
