// The distributed NQueens search on 1, 2 and 4 ranks: N = 1..12 give OEIS A000170 under
// every policy, with the exact number of tasks of the cutoff, with one and two worker threads
// per rank.
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <gtest/gtest.h>

#include "tessera/nqueens/board.hpp"
#include "tessera/nqueens/distributed_search.hpp"

#include "../../support/test_runtime.hpp"

namespace tessera::nqueens {
namespace {

using collections::steal::Policy;
using collections::steal::StealOptions;

constexpr std::uint64_t kA000170[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};

void expect_a000170(std::int32_t workers) {
  Runtime& rt = tessera::testing::runtime();
  for (const Policy policy : {Policy::random, Policy::lifeline, Policy::success_only}) {
    for (std::int32_t n = 1; n <= 12; ++n) {
      SCOPED_TRACE(std::string(to_string(policy)) + " N=" + std::to_string(n));
      const std::int32_t cutoff = std::min(3, n);
      StealOptions options;
      options.policy = policy;
      options.n = 4;
      options.workers = workers;
      const DistributedSearchResult result = search_distributed(rt, n, cutoff, options);
      EXPECT_EQ(result.solutions, kA000170[n - 1]);
      // One task per valid placement of rows 0..cutoff, the empty board included.
      std::uint64_t tasks = 0;
      const Board board(n);
      for (std::int32_t row = 0; row <= cutoff; ++row) tasks += board.tasks(row).size();
      EXPECT_EQ(result.tasks, tasks);
      if (policy == Policy::success_only) {
        EXPECT_EQ(result.stats.total().steals_failed, 0U);
      }
    }
  }
}

TEST(DistributedNQueens, OneToTwelveMatchA000170UnderEveryPolicy) { expect_a000170(1); }

TEST(DistributedNQueens, OneToTwelveMatchA000170WithTwoWorkerThreadsPerRank) { expect_a000170(2); }

}  // namespace
}  // namespace tessera::nqueens
