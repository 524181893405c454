// Dynamic membership: insertion from any rank, messages racing an insertion (held at the home,
// delivered once), dead letters at the end of the phase for destroyed and never-inserted
// elements, a destroy racing a
// migration, insertion again after a destruction, a sparse 6-D index space, broadcasts and
// reductions with inserted elements, and a storm of inserts, destroys and migrations with exact
// counts.
#include <tessera/collections.hpp>
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include "../../support/test_runtime.hpp"

namespace {

using namespace tessera::collections;
using tessera::op::sum;

tessera::Runtime& rt() { return tessera::testing::runtime(); }

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::int64_t total(std::int64_t local) { return rt().collectives().allreduce(local, sum{}); }

struct Cell : Element<Cell, 1> {
  std::int64_t seed = 0;     // the constructor's argument
  int born_on = -1;          // the rank that constructed it
  std::int64_t received = 0;
  std::int64_t value_sum = 0;
  std::int64_t ticks = 0;
  std::int64_t destroyed_hook = 0;

  Cell() = default;
  Cell(const Index1D&, std::int64_t s) : seed(s), born_on(runtime_rank()) {}

  static int runtime_rank() { return rt().rank(); }
  void note(std::int64_t value) {
    ++received;
    value_sum += value;
  }
  void tick() { ++ticks; }
  void hop(int dest) {
    ++received;
    migrate(dest);
  }
  void hop_then_destroy(int dest) {
    ++received;
    proxy()[index()].destroy();  // to this rank, which the element leaves before it arrives
    migrate(dest);
  }
  void note_and_destroy(std::int64_t value) {
    note(value);
    destroy();
  }
  void on_destroy() {
    ++destroyed_hook;
    destroyed_received() += received;
  }
  // What destroyed elements had received on this rank, for the storm's ledger.
  static std::int64_t& destroyed_received() {
    static std::int64_t n = 0;
    return n;
  }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(seed, born_on, received, value_sum, ticks, destroyed_hook);
  }
};

std::int64_t live(const CollectionProxy<Cell>& cells) {
  return total(static_cast<std::int64_t>(cells.manager().local_count()));
}
MembershipCounts counts(const CollectionProxy<Cell>& cells) {
  const MembershipCounts& m = cells.membership();
  return {total(m.inserted), total(m.destroyed), total(m.dead_letters)};
}

TEST(Dynamic, InsertFromAnyRankThenSendAndReduce) {
  constexpr std::int64_t kCells = 60;
  auto cells = make_dynamic_collection<Cell>(rt(), Index1D{kCells});
  EXPECT_TRUE(cells.dynamic());
  EXPECT_EQ(live(cells), 0);
  const int p = rt().size(), me = rt().rank();
  // Each rank inserts a share it does not home, every third one on a rank it names, and sends
  // to it at once: the insertion and the message leave in this order, so the message finds it.
  for (std::int64_t i = 0; i < kCells; ++i) {
    if (static_cast<int>((i + 1) % p) != me) continue;
    if (i % 3 == 0) cells[{i}].insert_at(static_cast<int>(mix(i) % p), i * 10);
    else cells[{i}].insert(i * 10);
    cells[{i}].send<&Cell::note>(i);
  }
  rt().drain();
  EXPECT_EQ(live(cells), kCells);
  std::int64_t placed_right = 0;
  cells.manager().for_each_local([&](Cell& c) {
    EXPECT_EQ(c.seed, c.index()[0] * 10);
    EXPECT_EQ(c.received, 1);
    EXPECT_EQ(c.value_sum, c.index()[0]);
    const std::int64_t i = c.index()[0];
    const int expected = i % 3 == 0 ? static_cast<int>(mix(i) % p) : cells.manager().home_of(c.linear_id());
    placed_right += c.born_on == expected;
  });
  EXPECT_EQ(total(placed_right), kCells);
  // Inserted elements take part in reductions.
  EXPECT_EQ(cells.allreduce(std::int64_t{0}, sum{}, [](Cell& c) { return c.seed; }), 10 * kCells * (kCells - 1) / 2);
  const MembershipCounts m = counts(cells);
  EXPECT_EQ(m.inserted, kCells);
  EXPECT_EQ(m.destroyed, 0);
  EXPECT_EQ(m.dead_letters, 0);
  cells.destroy();
}

TEST(Dynamic, MessagesRacingAnInsertionAreHeldThenDeliveredOnce) {
  auto cells = make_dynamic_collection<Cell>(rt(), Index1D{8});
  const Index1D target{5};
  const int home = cells.manager().home_of(5);
  // Every rank sends before anyone inserts: each message reaches the home and waits there.
  for (int k = 0; k < 3; ++k) cells[target].send<&Cell::note>(std::int64_t{rt().rank() * 100 + k});
  rt().drain();
  EXPECT_EQ(live(cells), 0);
  // The last rank inserts it on rank 0 (another rank than its home when there are several).
  if (rt().rank() == rt().size() - 1) cells[target].insert_at(0, std::int64_t{7});
  rt().drain();
  const std::int64_t p = rt().size();
  std::int64_t received = 0, value_sum = 0;
  if (Cell* c = cells.manager().local(5)) {
    received = c->received;
    value_sum = c->value_sum;
    EXPECT_EQ(rt().rank(), 0);
  }
  EXPECT_EQ(total(received), 3 * p);
  EXPECT_EQ(total(value_sum), 100 * p * (p - 1) / 2 * 3 + 3 * p);
  EXPECT_EQ(counts(cells).dead_letters, 0);
  (void)home;
  cells.destroy();
}

TEST(Dynamic, MessagesToDestroyedOrNeverInsertedElementsAreDeadLetters) {
  auto cells = make_dynamic_collection<Cell>(rt(), Index1D{16});
  auto& phases = PhaseManager::of(rt());
  phases.end_phase();  // this test's phase starts here
  if (rt().rank() == 0)
    for (std::int64_t i = 0; i < 4; ++i) cells[{i}].insert(i);
  rt().drain();
  // Rank 1 (or 0) destroys two; element 2 destroys itself after its message.
  if (rt().rank() == rt().size() - 1) {
    cells[{0}].destroy();
    cells[{1}].destroy();
    cells[{2}].send<&Cell::note_and_destroy>(std::int64_t{1});
  }
  rt().drain();
  EXPECT_EQ(live(cells), 1);
  // Each rank sends to each destroyed element, destroys one again, and sends to index 9, never
  // inserted: all wait at their homes for an insertion until the end of the phase.
  for (std::int64_t i = 0; i < 3; ++i) cells[{i}].send<&Cell::note>(i);
  cells[{1}].destroy();
  cells[{9}].send<&Cell::note>(std::int64_t{9});
  rt().drain();
  const std::int64_t p = rt().size();
  EXPECT_EQ(counts(cells).dead_letters, 0);
  const PhaseRecord record = phases.end_phase();
  EXPECT_EQ(total(record.membership.dead_letters), 5 * p);
  EXPECT_EQ(counts(cells).dead_letters, 5 * p);
  EXPECT_EQ(total(record.membership.inserted), 4);
  EXPECT_EQ(total(record.membership.destroyed), 3);
  // The destroyed elements ran this phase: they appear in the record as having left.
  std::int64_t departed = 0;
  for (const ElementRecord& e : record.elements)
    if (e.key.collection == cells.id() && !e.local) ++departed;
  EXPECT_EQ(total(departed), 3);
  EXPECT_EQ(total(phases.end_phase().membership.dead_letters), 0);
  cells.destroy();
}

TEST(Dynamic, DestroyRacingAMigrationDestroysOnce) {
  constexpr std::int64_t kCells = 40;
  auto cells = make_dynamic_collection<Cell>(rt(), Index1D{kCells});
  const int p = rt().size();
  if (rt().rank() == 0)
    for (std::int64_t i = 0; i < kCells; ++i) cells[{i}].insert(i);
  rt().drain();
  // Every element hops to another rank. The even ones send their own destroy to the rank they
  // are leaving, which must follow them; the last rank destroys every fourth one too, so one of
  // its two destroys is a dead letter.
  for (std::int64_t i = 0; i < kCells; ++i)
    if (static_cast<int>(i % p) == rt().rank()) {
      if (i % 2 == 0) cells[{i}].send<&Cell::hop_then_destroy>(static_cast<int>((i + 1) % p));
      else cells[{i}].send<&Cell::hop>(static_cast<int>((i + 1) % p));
    }
  if (rt().rank() == p - 1)
    for (std::int64_t i = 0; i < kCells; i += 4) cells[{i}].destroy();
  PhaseManager::of(rt()).end_phase();
  EXPECT_EQ(live(cells), kCells / 2);
  const MembershipCounts m = counts(cells);
  EXPECT_EQ(m.destroyed, kCells / 2);
  EXPECT_EQ(m.dead_letters, kCells / 4);
  cells.manager().for_each_local([&](Cell& c) {
    const std::int64_t i = c.index()[0];
    EXPECT_EQ(i % 2, 1);
    EXPECT_EQ(c.received, 1);
    EXPECT_EQ(rt().rank(), (i + 1) % p);
    // It moved unless its home was where it was sent.
    EXPECT_EQ(c.migrations(), cells.manager().home_of(c.linear_id()) == rt().rank() ? 0u : 1u);
  });
  cells.destroy();
}

TEST(Dynamic, AnIndexInsertedAgainAfterItsDestructionIsANewElement) {
  auto cells = make_dynamic_collection<Cell>(rt(), Index1D{4});
  const int p = rt().size();
  if (rt().rank() == 0) cells[{3}].insert(std::int64_t{1});
  rt().drain();
  if (rt().rank() == 0) cells[{3}].send<&Cell::hop>(p - 1);
  rt().drain();
  // Destroyed, then inserted again from another rank on another rank; the insertion waits at
  // the home if it gets there before the destruction's notice.
  if (rt().rank() == p - 1) {
    cells[{3}].destroy();
    cells[{3}].insert_at(p / 2, std::int64_t{2});
    cells[{3}].send<&Cell::note>(std::int64_t{5});
  }
  rt().drain();
  // Every rank reaches it, whatever stale facts it holds.
  cells[{3}].send<&Cell::note>(std::int64_t{1});
  rt().drain();
  std::int64_t found = 0;
  if (Cell* c = cells.manager().local(3)) {
    found = 1;
    EXPECT_EQ(rt().rank(), p / 2);
    EXPECT_EQ(c->seed, 2);
    EXPECT_EQ(c->received, 1 + p);
    EXPECT_EQ(c->destroyed_hook, 0);
  }
  EXPECT_EQ(total(found), 1);
  const MembershipCounts m = counts(cells);
  EXPECT_EQ(m.inserted, 2);
  EXPECT_EQ(m.destroyed, 1);
  EXPECT_EQ(m.dead_letters, 0);
  cells.destroy();
}

TEST(Dynamic, InsertedElementsRunLaterBroadcastsOnce) {
  auto cells = make_dynamic_collection<Cell>(rt(), Index1D{32});
  if (rt().rank() == 0) cells.broadcast_from_this_rank<&Cell::tick>();  // reaches no one
  rt().drain();
  for (std::int64_t i = rt().rank(); i < 32; i += rt().size()) cells[{i}].insert(i);
  rt().drain();
  if (rt().rank() == 0) cells.broadcast_from_this_rank<&Cell::tick>();
  rt().drain();
  EXPECT_EQ(cells.allreduce(std::int64_t{0}, sum{}, [](Cell& c) { return c.ticks; }), 32);
  cells.destroy();
}

struct Block : Element<Block, 6> {
  std::int64_t level = 0;
  std::int64_t hits = 0;
  Block() = default;
  explicit Block(std::int64_t l) : level(l) {}
  void hit() { ++hits; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(level, hits);
  }
};

TEST(Dynamic, ASparseSixDimensionalIndexSpace) {
  // 2^60 indices: only the inserted ones take memory.
  const Index<6> bounds{1024, 1024, 1024, 1024, 1024, 1024};
  auto blocks = make_dynamic_collection<Block>(rt(), bounds, Mapper<6>(round_robin_map<6>));
  const Index<6> a{1, 2, 3, 4, 5, 6}, b{1023, 0, 1023, 0, 1023, 0};
  if (rt().rank() == 0) {
    blocks[a].insert(std::int64_t{2});
    blocks[b].insert(std::int64_t{5});
  }
  rt().drain();
  blocks[a].send<&Block::hit>();
  blocks[b].send<&Block::hit>();
  rt().drain();
  EXPECT_EQ(blocks.allreduce(std::int64_t{0}, sum{}, [](Block& x) { return x.hits; }), 2 * rt().size());
  EXPECT_EQ(blocks.allreduce(std::int64_t{0}, sum{}, [](Block& x) { return x.level; }), 7);
  blocks.destroy();
}

// A storm: elements inserted from every rank onto random ranks, messages to them from every
// rank at once (some reach the home before the insertion), then hops to random ranks racing
// destroys of every third element, then messages to all: exact counts everywhere.
TEST(Dynamic, StormOfInsertsDestroysAndMigrations) {
  constexpr std::int64_t kCells = 600;
  auto cells = make_dynamic_collection<Cell>(rt(), Index1D{kCells});
  const int p = rt().size(), me = rt().rank();
  const std::int64_t received_before = Cell::destroyed_received();
  for (std::int64_t i = 0; i < kCells; ++i) {
    if (static_cast<int>(mix(i ^ 77) % p) == me) cells[{i}].insert_at(static_cast<int>(mix(i) % p), i);
    cells[{i}].send<&Cell::note>(std::int64_t{1});
    if (i % 50 == 0) rt().progress();
  }
  rt().drain();
  EXPECT_EQ(live(cells), kCells);
  EXPECT_EQ(cells.allreduce(std::int64_t{0}, sum{}, [](Cell& c) { return c.received; }), kCells * p);
  for (std::int64_t i = 0; i < kCells; ++i) {
    if (static_cast<int>(i % p) == me) cells[{i}].send<&Cell::hop>(static_cast<int>(mix(i + 5) % p));
    if (i % 3 == 0 && static_cast<int>(mix(i + 9) % p) == me) cells[{i}].destroy();
    if (i % 50 == 0) rt().progress();
  }
  rt().drain();
  const std::int64_t destroyed = (kCells + 2) / 3;
  EXPECT_EQ(live(cells), kCells - destroyed);
  for (std::int64_t i = 0; i < kCells; ++i) cells[{i}].send<&Cell::note>(std::int64_t{1});
  PhaseManager::of(rt()).end_phase();
  const MembershipCounts m = counts(cells);
  EXPECT_EQ(m.inserted, kCells);
  EXPECT_EQ(m.destroyed, destroyed);
  // The ledger: every message sent ran or is a dead letter, never both, never twice. A destroy
  // races each destroyed element's hop, so its hop ran or is a dead letter.
  const std::int64_t received = cells.allreduce(std::int64_t{0}, sum{}, [](Cell& c) { return c.received; }) +
                                total(Cell::destroyed_received() - received_before);
  const std::int64_t hops_run = received - kCells * p - (kCells - destroyed) * p;
  EXPECT_GE(hops_run, kCells - destroyed);
  EXPECT_EQ(m.dead_letters, destroyed * p + (kCells - hops_run));
  cells.destroy();
}

}  // namespace
