// Object groups: member handlers on per-rank instances, by rank and by broadcast.
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include "../../support/test_runtime.hpp"

namespace {

struct Counter {
  explicit Counter(int base) : base(base) {}
  int base;
  int hits = 0;
  long total = 0;
  void hit(int from, int amount) {
    ++hits;
    total += amount + base * 0 + from * 0;
  }
};

TEST(ObjGroup, SendAndBroadcastRunOnTheLocalInstance) {
  auto& rt = tessera::testing::runtime();
  auto group = tessera::make_objgroup<Counter>(rt, 10);
  ASSERT_NE(group.local(), nullptr);
  EXPECT_EQ(group.local()->base, 10);
  // Everyone sends 3 hits to every rank, then one broadcast each.
  for (int dest = 0; dest < rt.size(); ++dest)
    for (int i = 0; i < 3; ++i) group.send<&Counter::hit>(dest, rt.rank(), 2);
  group.broadcast_from_this_rank<&Counter::hit>(rt.rank(), 5);
  rt.drain();
  EXPECT_EQ(group.local()->hits, 4 * rt.size());
  EXPECT_EQ(group.local()->total, (3 * 2 + 5) * rt.size());
}

TEST(ObjGroup, TwoGroupsAreIndependent) {
  auto& rt = tessera::testing::runtime();
  auto a = tessera::make_objgroup<Counter>(rt, 1);
  auto b = tessera::make_objgroup<Counter>(rt, 2);
  EXPECT_NE(a.id(), b.id());
  a.send<&Counter::hit>((rt.rank() + 1) % rt.size(), rt.rank(), 1);
  rt.drain();
  EXPECT_EQ(a.local()->hits, 1);
  EXPECT_EQ(b.local()->hits, 0);
}

}  // namespace
