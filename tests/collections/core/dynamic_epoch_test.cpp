// Dynamic membership and epochs: a message held at its element's home until an insertion counts
// as delivered in its own epoch, which may end before the insertion comes. When it runs, what it
// sends must belong to the epoch of the insertion, not to its own ended one: the soak once died
// with "a message was sent into rooted epoch 11 of rank 0, which has already ended" because a
// released message sent into its Dijkstra-Scholten epoch, which only the root knows has ended.
#include <tessera/collections.hpp>
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <gtest/gtest.h>

#include "../../support/test_runtime.hpp"

namespace {

using namespace tessera::collections;
using tessera::op::sum;

tessera::Runtime& rt() { return tessera::testing::runtime(); }

struct Relay : Element<Relay, 1> {
  std::int64_t notes = 0;
  std::uint64_t last_epoch = 0;

  Relay() = default;
  explicit Relay(const Index1D&) {}

  void note() {
    ++notes;
    last_epoch = runtime().current_epoch();
  }
  // Runs where the element is, and sends on to element `to`.
  void relay(std::int64_t to) { proxy()[{to}].send<&Relay::note>(); }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(notes, last_epoch);
  }
};

// The first index homed on `rank`.
std::int64_t homed_on(const CollectionProxy<Relay>& relays, int rank, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (relays.manager().home_of(static_cast<std::uint64_t>(i)) == rank) return i;
  ADD_FAILURE() << "no index of " << n << " is homed on rank " << rank;
  return 0;
}

class DynamicEpochs : public ::testing::TestWithParam<const char*> {};

TEST_P(DynamicEpochs, AMessageHeldPastItsRootedEpochSendsInTheEpochOfItsInsertion) {
  if (rt().size() < 2) GTEST_SKIP() << "the held message's home must not be the epoch's root";
  tessera::TerminationFlags flags;
  flags.rooted_detection = GetParam();
  tessera::Termination term(rt(), flags);
  const std::int64_t kIndices = 4 * rt().size();  // some homed on every rank, whatever the mapping
  auto relays = make_dynamic_collection<Relay>(rt(), Index1D{kIndices});
  const std::int64_t on_root = homed_on(relays, 0, kIndices);  // lives on rank 0, the epoch's root
  const std::int64_t held = homed_on(relays, 1, kIndices);     // not inserted yet: held on rank 1
  if (rt().rank() == 0) relays[{on_root}].insert();
  rt().drain();

  // Rank 0's rooted epoch: the relay is held on rank 1, counts as delivered, and the epoch ends.
  if (rt().rank() == 0) term.run_in_epoch_rooted([&] { relays[{held}].send<&Relay::relay>(on_root); });
  rt().drain();
  EXPECT_EQ(rt().collectives().allreduce(static_cast<std::int64_t>(relays.manager().local_count()), sum{}), 1);

  // Rank 1 inserts it inside a collective epoch: the relay runs then, and its note to rank 0
  // belongs to that epoch, which is open, rather than to rank 0's ended rooted epoch.
  tessera::EpochId collective = 0;
  term.run_in_epoch_collective([&] {
    collective = rt().current_epoch();
    if (rt().rank() == 1) relays[{held}].insert_at(1);
  });
  rt().drain();
  std::int64_t notes = 0;
  if (Relay* r = relays.local({on_root})) {
    notes = r->notes;
    EXPECT_EQ(r->last_epoch, collective);
  }
  EXPECT_EQ(rt().collectives().allreduce(notes, sum{}), 1);
  EXPECT_EQ(relays.membership().dead_letters, 0);
  relays.destroy();
}

INSTANTIATE_TEST_SUITE_P(Detectors, DynamicEpochs, ::testing::Values("ds", "wave"));

}  // namespace
