// The distributed UTS search on 1, 2 and 4 ranks: small trees of every type and shape give
// exactly the sequential search's counts under every policy, with one task per node, with one
// and with two worker threads per rank.
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <gtest/gtest.h>

#include "tessera/uts/distributed_search.hpp"

#include "../../support/test_runtime.hpp"

namespace tessera::uts {
namespace {

using collections::steal::Policy;
using collections::steal::StealOptions;

TreeParams small(TreeType type, GeoShape shape, double b, std::int32_t d, std::int32_t seed) {
  TreeParams p;
  p.type = type;
  p.shape = shape;
  p.root_branching = b;
  p.depth = d;
  p.root_seed = seed;
  return p;
}

std::vector<TreeParams> small_trees() {
  TreeParams binomial = small(TreeType::binomial, GeoShape::linear, 50, 6, 7);
  binomial.nonleaf_probability = 0.2;
  TreeParams hybrid = small(TreeType::hybrid, GeoShape::linear, 4, 10, 4);
  hybrid.nonleaf_probability = 0.24;
  return {
      binomial,
      small(TreeType::geometric, GeoShape::linear, 4, 8, 1),
      small(TreeType::geometric, GeoShape::expdec, 4, 6, 7),
      small(TreeType::geometric, GeoShape::cyclic, 4, 6, 4),
      small(TreeType::geometric, GeoShape::fixed, 3, 6, 9),
      hybrid,
  };
}

void expect_sequential_counts(std::int32_t workers) {
  Runtime& rt = tessera::testing::runtime();
  for (const TreeParams& params : small_trees()) {
    const TreeCounts expected = search_sequential(params);
    for (const Policy policy : {Policy::random, Policy::lifeline, Policy::success_only}) {
      SCOPED_TRACE(describe(params) + " " + std::string(to_string(policy)));
      StealOptions options;
      options.policy = policy;
      options.n = 8;
      options.workers = workers;
      const DistributedSearchResult result = search_distributed(rt, params, options);
      EXPECT_EQ(result.counts, expected);
      EXPECT_EQ(result.stats.total().tasks_executed, expected.nodes);
      if (policy == Policy::success_only) {
        EXPECT_EQ(result.stats.total().steals_failed, 0U);
      }
    }
  }
}

TEST(DistributedUts, SmallTreesMatchTheSequentialCountsUnderEveryPolicy) { expect_sequential_counts(1); }

TEST(DistributedUts, SmallTreesMatchWithTwoWorkerThreadsPerRank) { expect_sequential_counts(2); }

TEST(DistributedUts, LoneRootAndStar) {
  Runtime& rt = tessera::testing::runtime();
  TreeParams star;
  star.type = TreeType::binomial;
  star.root_branching = 7.9;
  star.nonleaf_probability = 0;
  TreeParams lone;
  lone.root_branching = 0;
  StealOptions options;
  options.policy = Policy::lifeline;
  EXPECT_EQ(search_distributed(rt, star, options).counts, (TreeCounts{8, 7, 1}));
  EXPECT_EQ(search_distributed(rt, lone, options).counts, (TreeCounts{1, 1, 0}));
}

}  // namespace
}  // namespace tessera::uts
