// EndedEpochs: exact membership however the epochs of each origin end (in order, inner before
// outer, with gaps that never fill), and origins kept apart.
#include "ended_epochs.hpp"

#include <gtest/gtest.h>

namespace tessera::detail {
namespace {

TEST(EndedEpochs, InOrderOutOfOrderAndGaps) {
  EndedEpochs ended;
  EXPECT_FALSE(ended.contains(make_collective_epoch(1)));
  ended.insert(make_collective_epoch(1));
  ended.insert(make_collective_epoch(3));  // an inner epoch ends before its outer one
  EXPECT_TRUE(ended.contains(make_collective_epoch(1)));
  EXPECT_FALSE(ended.contains(make_collective_epoch(2)));
  EXPECT_TRUE(ended.contains(make_collective_epoch(3)));
  ended.insert(make_collective_epoch(2));
  for (std::uint64_t s = 1; s <= 3; ++s) EXPECT_TRUE(ended.contains(make_collective_epoch(s))) << s;
  EXPECT_FALSE(ended.contains(make_collective_epoch(4)));
  ended.insert(make_collective_epoch(2));  // again: no change
  EXPECT_FALSE(ended.contains(make_collective_epoch(4)));
}

TEST(EndedEpochs, RootedOriginsAreSeparate) {
  EndedEpochs ended;
  ended.insert(make_rooted_epoch(2, 1));
  ended.insert(make_rooted_epoch(2, 5));  // this rank never saw 2..4 of rank 2
  EXPECT_TRUE(ended.contains(make_rooted_epoch(2, 1)));
  EXPECT_FALSE(ended.contains(make_rooted_epoch(2, 2)));
  EXPECT_TRUE(ended.contains(make_rooted_epoch(2, 5)));
  EXPECT_FALSE(ended.contains(make_rooted_epoch(3, 1)));
  EXPECT_FALSE(ended.contains(make_collective_epoch(1)));
  ended.insert(make_rooted_epoch(3, 1));
  EXPECT_TRUE(ended.contains(make_rooted_epoch(3, 1)));
  EXPECT_FALSE(ended.contains(make_rooted_epoch(2, 3)));
}

}  // namespace
}  // namespace tessera::detail
