// Broadcasts to a collection whose elements migrate themselves while the broadcasts are still
// travelling down the spanning tree: every element runs every broadcast exactly once, and the
// broadcasts of one root in the order they were sent.
#include <tessera/collections.hpp>
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include "../../support/test_runtime.hpp"

namespace {

using namespace tessera::collections;

tessera::Runtime& rt() { return tessera::testing::runtime(); }

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr std::int64_t kRovers = 96;
constexpr std::uint64_t kRounds = 12;

// Runs broadcasts and moves on after each one, so the broadcasts behind it reach ranks it has
// already left, or has not reached yet.
struct Rover : Element<Rover, 1> {
  std::vector<std::uint64_t> runs;        // broadcasts run, per root rank
  std::vector<std::uint64_t> next_round;  // the round expected next from each root
  std::uint64_t out_of_order = 0;

  void tick(std::int32_t root, std::uint64_t round) {
    const auto ranks = static_cast<std::size_t>(runtime().size());
    runs.resize(ranks);
    next_round.resize(ranks);
    if (round != next_round[root]) ++out_of_order;
    next_round[root] = round + 1;
    ++runs[root];
    std::uint64_t total = 0;
    for (std::uint64_t n : runs) total += n;
    migrate(static_cast<int>(mix(linear_id() * 7919 + total) % ranks));
  }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(runs, next_round, out_of_order);
  }
};

// Every rank broadcasts `rounds` rounds, numbered from `first`, one per scheduler turn.
void broadcast_rounds(CollectionProxy<Rover>& rovers, std::uint64_t first, std::uint64_t rounds) {
  for (std::uint64_t round = first; round < first + rounds; ++round) {
    rovers.broadcast_from_this_rank<&Rover::tick>(static_cast<std::int32_t>(rt().rank()), round);
    rt().progress();
  }
}

TEST(BroadcastMigration, EveryElementRunsEveryBroadcastOnceWhileMoving) {
  auto rovers = make_collection<Rover>(rt(), {kRovers});
  auto& phases = PhaseManager::of(rt());
  // Two halves across an end of phase, which drops the broadcasts kept for late elements.
  broadcast_rounds(rovers, 0, kRounds / 2);
  phases.end_phase();
  broadcast_rounds(rovers, kRounds / 2, kRounds - kRounds / 2);
  rt().drain();

  const auto ranks = static_cast<std::size_t>(rt().size());
  std::uint64_t local = 0, moves = 0;
  rovers.manager().for_each_local([&](Rover& r) {
    EXPECT_EQ(r.runs, std::vector<std::uint64_t>(ranks, kRounds)) << "element " << r.linear_id();
    EXPECT_EQ(r.out_of_order, 0u) << "element " << r.linear_id();
    moves += r.migrations();
    ++local;
  });
  EXPECT_EQ(rt().collectives().allreduce(local, tessera::op::sum{}), static_cast<std::uint64_t>(kRovers));
  // The elements did move while broadcasts were in flight (otherwise this test shows nothing).
  if (ranks > 1) {
    EXPECT_GT(rt().collectives().allreduce(moves, tessera::op::sum{}), static_cast<std::uint64_t>(kRovers));
  }
  rovers.destroy();
}

}  // namespace
