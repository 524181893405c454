// Broadcasts and spanning-tree reductions: exact results, custom operators, every fanout.
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "../../support/test_runtime.hpp"

namespace {

std::vector<int> broadcasts_seen;
void on_broadcast(int root, int value) {
  EXPECT_EQ(value, root * 1000 + 7);
  broadcasts_seen[root] += 1;
}

TEST(Collectives, BroadcastReachesEveryRankExactlyOnce) {
  auto& rt = tessera::testing::runtime();
  broadcasts_seen.assign(rt.size(), 0);
  rt.collectives().barrier();
  rt.broadcast_from_this_rank<&on_broadcast>(rt.rank(), rt.rank() * 1000 + 7);  // every rank is a root once
  rt.drain();
  for (int root = 0; root < rt.size(); ++root) EXPECT_EQ(broadcasts_seen[root], 1) << "root " << root;
}

TEST(Collectives, IntegerReductionsAreExact) {
  auto& rt = tessera::testing::runtime();
  const long p = rt.size();
  const long r = rt.rank();
  EXPECT_EQ(rt.collectives().allreduce(r + 1, tessera::op::sum{}), p * (p + 1) / 2);
  EXPECT_EQ(rt.collectives().allreduce(r * 3 - 5, tessera::op::min{}), -5);
  EXPECT_EQ(rt.collectives().allreduce(r * 3 - 5, tessera::op::max{}), (p - 1) * 3 - 5);
  const std::int64_t big = std::int64_t{1} << 40;
  EXPECT_EQ(rt.collectives().allreduce(big + r, tessera::op::sum{}), p * big + p * (p - 1) / 2);
}

TEST(Collectives, VectorsReduceElementWise) {
  auto& rt = tessera::testing::runtime();
  const int p = rt.size();
  std::vector<std::int64_t> mine{rt.rank(), 1, -rt.rank()};
  auto sum = rt.collectives().allreduce(mine, tessera::op::sum{});
  EXPECT_EQ(sum, (std::vector<std::int64_t>{p * (p - 1) / 2, p, -p * (p - 1) / 2}));
  auto mx = rt.collectives().allreduce(mine, tessera::op::max{});
  EXPECT_EQ(mx, (std::vector<std::int64_t>{p - 1, 1, 0}));
}

TEST(Collectives, CustomOperatorAndReduceToRoot) {
  auto& rt = tessera::testing::runtime();
  // Concatenate rank ids: not commutative, so the fixed combine order is visible. The result
  // must contain every rank exactly once.
  auto concat = [](std::vector<int> a, const std::vector<int>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const int root = rt.size() - 1;
  auto gathered = rt.collectives().reduce(root, std::vector<int>{rt.rank()}, concat);
  if (rt.rank() == root) {
    ASSERT_TRUE(gathered.has_value());
    std::sort(gathered->begin(), gathered->end());
    std::vector<int> all(rt.size());
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(*gathered, all);
  } else {
    EXPECT_FALSE(gathered.has_value());
  }
  // The same reduction twice gives the identical (order-sensitive) result.
  auto first = rt.collectives().allreduce(std::vector<int>{rt.rank()}, concat);
  auto second = rt.collectives().allreduce(std::vector<int>{rt.rank()}, concat);
  EXPECT_EQ(first, second);
}

double reduced_to_handler = -1;
void take_reduction(double value) { reduced_to_handler = value; }

TEST(Collectives, ReductionDeliversToAHandler) {
  auto& rt = tessera::testing::runtime();
  reduced_to_handler = -1;
  rt.collectives().reduce_to<&take_reduction>(0, 0.5 * (rt.rank() + 1), tessera::op::sum{});
  rt.drain();
  if (rt.rank() == 0) EXPECT_DOUBLE_EQ(reduced_to_handler, 0.25 * rt.size() * (rt.size() + 1));
  else EXPECT_EQ(reduced_to_handler, -1);
}

TEST(Collectives, ManyNonBlockingReductionsInFlight) {
  auto& rt = tessera::testing::runtime();
  constexpr int n = 200;
  std::vector<long> results(n, -1);
  int done = 0;
  for (int i = 0; i < n; ++i)
    rt.collectives().allreduce<long>(i * (rt.rank() + 1), tessera::op::sum{}, [&, i](long v) {
      results[i] = v;
      ++done;
    });
  rt.run_until([&] { return done == n; });
  const long p = rt.size();
  for (int i = 0; i < n; ++i) EXPECT_EQ(results[i], i * p * (p + 1) / 2);
}

}  // namespace
