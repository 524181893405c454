// Termination detection: exact message accounting on random cascades, nesting, rooted epochs
// concurrent with collective ones.
#include "cascade.hpp"

#include <gtest/gtest.h>

#include "../../support/test_runtime.hpp"

namespace {

tessera::Termination& termination() { return tessera::Termination::of(tessera::testing::runtime()); }

// Sum over ranks of sent - handled for `epoch`, from the cascade's own tallies.
std::int64_t imbalance(tessera::EpochId epoch) {
  auto& rt = tessera::testing::runtime();
  const std::int64_t mine = cascade::tally.sent[epoch] - cascade::tally.handled[epoch];
  return rt.collectives().allreduce(mine, tessera::op::sum{});
}

TEST(Termination, RandomCascadesEndExactlyWhenEveryMessageIsHandled) {
  auto& rt = tessera::testing::runtime();
  auto& term = termination();
  constexpr int epochs = 200;
  std::int64_t total_handled = 0;
  for (int e = 0; e < epochs; ++e) {
    const tessera::EpochId epoch = term.open_collective();
    term.run_in(epoch, [&] {
      const int starters = static_cast<int>(cascade::mix(e * 7919 + rt.rank()) % 3);
      for (int i = 0; i < starters; ++i)
        cascade::launch(rt, cascade::mix(e * 1000003ull + rt.rank() * 101 + i), 1 + (e + i) % 5);
    });
    term.finish(epoch);
    term.wait(epoch);
    cascade::tally.ended.insert(epoch);
    // Counted independently, after the epoch: nothing may be in flight any more.
    ASSERT_EQ(imbalance(epoch), 0) << tessera::epoch_name(epoch);
    const auto [sent, handled] = term.counts(epoch);
    EXPECT_EQ(sent, 0u) << "records of an ended epoch are released";
    (void)handled;
    total_handled += cascade::tally.handled[epoch];
  }
  EXPECT_GT(rt.collectives().allreduce(total_handled, tessera::op::sum{}), epochs);
  EXPECT_EQ(rt.collectives().allreduce(cascade::tally.late, tessera::op::sum{}), 0);
}

TEST(Termination, EmptyEpochsEnd) {
  auto& term = termination();
  for (int i = 0; i < 50; ++i) term.run_in_epoch_collective([] {});
  const tessera::EpochId rooted = term.open_rooted();
  term.finish(rooted);
  term.wait(rooted);
  EXPECT_TRUE(term.terminated(rooted));
}

int inner_ended = 0;
int inner_started = 0;
bool outer_saw_inner_done = false;

void open_inner_from_handler(tessera::Runtime& rt, std::uint64_t seed) {
  // A handler of the outer epoch opens a rooted epoch of its own: a unit of the outer epoch.
  auto& term = tessera::Termination::of(rt);
  ++inner_started;
  term.start_rooted([&] { cascade::launch(rt, seed, 5); }, [] { ++inner_ended; });
}

TEST(Termination, NestedEpochsEndInsideOut) {
  auto& rt = tessera::testing::runtime();
  auto& term = termination();
  inner_ended = inner_started = 0;
  outer_saw_inner_done = false;
  bool inner_collective_done = false;
  bool outer_callback_ran = false;
  rt.collectives().barrier();  // no rank may send into this test before every rank has reset
  const tessera::EpochId outer = term.open_collective();
  term.run_in(outer, [&] {
    const tessera::EpochId inner = term.open_collective();
    term.run_in(inner, [&] { cascade::launch(rt, cascade::mix(rt.rank() + 77), 6); });
    term.on_termination(inner, [&] { inner_collective_done = true; });
    term.finish(inner);
    for (int i = 0; i < 3; ++i)
      rt.send<&open_inner_from_handler>((rt.rank() + i) % rt.size(), cascade::mix(rt.rank() * 13 + i));
  });
  term.on_termination(outer, [&] {
    outer_saw_inner_done = inner_collective_done && inner_ended == inner_started;
    outer_callback_ran = true;
  });
  term.finish(outer);
  term.wait(outer);
  EXPECT_TRUE(inner_collective_done);
  EXPECT_EQ(inner_ended, inner_started);
  rt.run_until([&] { return outer_callback_ran; });  // the outer callback runs after the inner ones
  EXPECT_TRUE(outer_saw_inner_done);
  EXPECT_EQ(rt.collectives().allreduce(inner_started, tessera::op::sum{}), 3 * rt.size());
}

TEST(Termination, RootedEpochsFromEveryRankBesideACollectiveOne) {
  auto& rt = tessera::testing::runtime();
  auto& term = termination();
  for (int round = 0; round < 20; ++round) {
    const tessera::EpochId collective = term.open_collective();
    const tessera::EpochId rooted = term.open_rooted();
    term.run_in(collective, [&] { cascade::launch(rt, cascade::mix(round * 31 + rt.rank()), 4); });
    term.run_in(rooted, [&] {
      for (int i = 0; i < 2; ++i) cascade::launch(rt, cascade::mix(round * 97 + rt.rank() * 5 + i), 5);
    });
    term.finish(rooted);
    term.finish(collective);
    term.wait_all({collective, rooted});
    cascade::tally.ended.insert(rooted);
    cascade::tally.ended.insert(collective);
    // Each rank's rooted epoch id differs; check the collective one and the sum of all rooted.
    EXPECT_EQ(imbalance(collective), 0);
    rt.collectives().barrier();  // every root has seen its rooted epoch end
    std::int64_t rooted_gap = 0;
    for (auto& [epoch, sent] : cascade::tally.sent)
      if (tessera::is_rooted_epoch(epoch)) rooted_gap += sent - cascade::tally.handled[epoch];
    for (auto& [epoch, handled] : cascade::tally.handled)
      if (tessera::is_rooted_epoch(epoch) && cascade::tally.sent.count(epoch) == 0) rooted_gap -= handled;
    EXPECT_EQ(rt.collectives().allreduce(rooted_gap, tessera::op::sum{}), 0);
  }
  EXPECT_EQ(rt.collectives().allreduce(cascade::tally.late, tessera::op::sum{}), 0);
}

}  // namespace
