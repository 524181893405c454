// The transfer stage on one rank (seed 003, Algorithm 2 and Algorithms 4-6): exact orders, CMF
// values, criteria and proposals.

#include <gtest/gtest.h>

#include "tessera/lb/tempered_transfer.hpp"

namespace tessera::lb::tempered {
namespace {

using Ordering = TemperedOptions::Ordering;

std::vector<LbObject> objects(const std::vector<double>& loads, std::vector<std::uint64_t> ids = {}) {
  std::vector<LbObject> out;
  for (std::size_t i = 0; i < loads.size(); ++i) {
    out.push_back(LbObject{ObjectId::packed(ids.empty() ? i : ids[i]), loads[i], true, {}});
  }
  return out;
}

// Loads 0.5, 3, 1, 2, 1.5 on a rank of load 8 with average 6.8: the excess is 1.2.
const std::vector<double> five = {0.5, 3.0, 1.0, 2.0, 1.5};

TEST(TemperedOrdering, ArbitraryKeepsStorageOrderAndSkipsFixedObjects) {
  auto objs = objects(five);
  objs[1].migratable = false;
  EXPECT_EQ(order_objects(Ordering::arbitrary, objs, 6.8, 8.0), (std::vector<std::size_t>{0, 2, 3, 4}));
}

TEST(TemperedOrdering, ElementIdAscending) {
  const auto objs = objects(five, {40, 10, 30, 20, 50});
  EXPECT_EQ(order_objects(Ordering::element_id, objs, 6.8, 8.0), (std::vector<std::size_t>{1, 3, 2, 0, 4}));
}

TEST(TemperedOrdering, LoadIntensiveIsAlgorithm4Descending) {
  EXPECT_EQ(order_objects(Ordering::load_intensive, objects(five), 6.8, 8.0),
            (std::vector<std::size_t>{1, 3, 4, 2, 0}));
}

TEST(TemperedOrdering, FewestMigrationsIsAlgorithm5) {
  // Cut = 1.5, the lightest object above the excess 1.2: then 1, 0.5 descending, then 2, 3 ascending.
  EXPECT_EQ(order_objects(Ordering::fewest_migrations, objects(five), 6.8, 8.0),
            (std::vector<std::size_t>{4, 2, 0, 3, 1}));
  // No object exceeds the excess (7): plain descending (Algorithm 5, line 4).
  EXPECT_EQ(order_objects(Ordering::fewest_migrations, objects(five), 1.0, 8.0),
            (std::vector<std::size_t>{1, 3, 4, 2, 0}));
}

TEST(TemperedOrdering, LightweightIsAlgorithm6) {
  // Ascending 0.5, 1, 1.5, ...: the running sum reaches 1.2 at 1 (the marginal object).
  EXPECT_EQ(order_objects(Ordering::lightweight, objects(five), 6.8, 8.0),
            (std::vector<std::size_t>{2, 0, 4, 3, 1}));
  // The sum never reaches the excess: every object is "light", by descending load.
  EXPECT_EQ(order_objects(Ordering::lightweight, objects(five), -10.0, 8.0),
            (std::vector<std::size_t>{1, 3, 4, 2, 0}));
}

TEST(TemperedOrdering, KeepHeaviestDropsTheHeaviestOnlyAboveTheAverage) {
  auto order = order_objects(Ordering::load_intensive, objects(five), 2.5, 8.0);
  keep_heaviest(order, objects(five), 2.5);
  EXPECT_EQ(order, (std::vector<std::size_t>{3, 4, 2, 0}));  // 3 > 2.5 stays home
  order = order_objects(Ordering::load_intensive, objects(five), 3.0, 8.0);
  keep_heaviest(order, objects(five), 3.0);
  EXPECT_EQ(order, (std::vector<std::size_t>{1, 3, 4, 2, 0}));  // 3 is not above 3
  // Equal heaviest objects: the first in storage order stays, wherever the ordering put it.
  std::vector<std::size_t> tied = {1, 0};
  keep_heaviest(tied, objects({2, 2}), 1.0);
  EXPECT_EQ(tied, (std::vector<std::size_t>{1}));
}

TEST(TemperedCmf, OriginalNormalisesByTheAverage) {
  Cmf cmf;
  const std::vector<Peer> peers = {{3, 0.0}, {5, 0.5}, {9, 1.0}};
  cmf.build(peers, 1.0, TemperedOptions::Cmf::original);
  EXPECT_EQ(cmf.scale(), 1.0);
  const auto phi = cmf.cumulative();
  ASSERT_EQ(phi.size(), 3u);
  EXPECT_DOUBLE_EQ(phi[0], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(phi[1], 1.0);
  EXPECT_DOUBLE_EQ(phi[2], 1.0);
  EXPECT_EQ(cmf.sample(0.0), 0u);
  EXPECT_EQ(cmf.sample(0.66), 0u);
  EXPECT_EQ(cmf.sample(0.67), 1u);
  EXPECT_EQ(cmf.sample(0.999999), 1u);  // a peer at the average is never drawn
}

TEST(TemperedCmf, NormByMaxKeepsOverloadedPeersNonNegative) {
  Cmf cmf;
  const std::vector<Peer> peers = {{0, 0.0}, {1, 2.0}, {2, 1.0}};
  cmf.build(peers, 1.0, TemperedOptions::Cmf::normbymax);
  EXPECT_EQ(cmf.scale(), 2.0);
  const auto phi = cmf.cumulative();
  EXPECT_DOUBLE_EQ(phi[0], 1.0 / 1.5);
  EXPECT_DOUBLE_EQ(phi[1], 1.0 / 1.5);
  EXPECT_DOUBLE_EQ(phi[2], 1.0);
  // Original would give the 2.0 peer a negative weight; it gets none instead.
  cmf.build(peers, 1.0, TemperedOptions::Cmf::original);
  EXPECT_DOUBLE_EQ(cmf.cumulative()[1], 1.0);
}

TEST(TemperedCmf, NoPositiveWeightMeansNoDraw) {
  Cmf cmf;
  const std::vector<Peer> peers = {{0, 1.0}, {1, 1.0}};
  cmf.build(peers, 1.0, TemperedOptions::Cmf::original);
  EXPECT_EQ(cmf.sample(0.5), Cmf::npos);
  cmf.build({}, 1.0, TemperedOptions::Cmf::normbymax);
  EXPECT_EQ(cmf.sample(0.5), Cmf::npos);
}

TEST(TemperedCriterion, GrapevineAndRelaxed) {
  using C = TemperedOptions::Criterion;
  EXPECT_TRUE(criterion_holds(C::grapevine, 0.25, 0.5, 1.0, 3.0));
  EXPECT_FALSE(criterion_holds(C::grapevine, 0.5, 0.5, 1.0, 3.0));   // lands exactly on the average
  EXPECT_TRUE(criterion_holds(C::relaxed, 1.5, 1.0, 1.0, 3.0));      // 1 < 3 - 1.5: may overload the peer
  EXPECT_FALSE(criterion_holds(C::relaxed, 2.0, 1.0, 1.0, 3.0));     // would make the peer as loaded as us
}

TemperedOptions options(TemperedOptions::Criterion criterion, TemperedOptions::Cmf cmf) {
  TemperedOptions o;
  o.criterion = criterion;
  o.cmf = cmf;
  o.ordering = Ordering::arbitrary;
  return o;
}

TEST(TemperedTransfer, GrapevineRejectsWhatWouldOverloadTheOnlyPeer) {
  // Load 10 against average 5, one empty peer: 4 fits (0 + 4 < 5), then 3, 2 and 1 do not.
  std::vector<Peer> peers = {{1, 0.0}};
  Random random({1});
  const auto out = transfer(objects({4, 3, 2, 1}), 10.0, 5.0, peers,
                            options(TemperedOptions::Criterion::grapevine, TemperedOptions::Cmf::original), random);
  ASSERT_EQ(out.accepted.size(), 1u);
  EXPECT_EQ(out.accepted[0].object, 0u);
  EXPECT_EQ(out.rejected, 3);
  EXPECT_EQ(out.load, 6.0);
  EXPECT_EQ(peers[0].load, 4.0);
}

TEST(TemperedTransfer, RelaxedBalancesTheOnlyPeerExactly) {
  // 4 < 10 - 0; 3 and 2 are not below 6 - 4; 1 is, and the rank reaches the average.
  std::vector<Peer> peers = {{1, 0.0}};
  Random random({1});
  const auto out = transfer(objects({4, 3, 2, 1}), 10.0, 5.0, peers,
                            options(TemperedOptions::Criterion::relaxed, TemperedOptions::Cmf::normbymax), random);
  ASSERT_EQ(out.accepted.size(), 2u);
  EXPECT_EQ(out.accepted[0].object, 0u);
  EXPECT_EQ(out.accepted[1].object, 3u);
  EXPECT_EQ(out.rejected, 2);
  EXPECT_EQ(out.load, 5.0);
  EXPECT_EQ(peers[0].load, 5.0);
}

TEST(TemperedTransfer, StopsAtThresholdTimesAverage) {
  std::vector<Peer> peers = {{1, 0.0}, {2, 0.0}};
  auto o = options(TemperedOptions::Criterion::relaxed, TemperedOptions::Cmf::normbymax);
  o.threshold = 1.5;
  Random random({7});
  const auto out = transfer(objects({1, 1, 1, 1, 1, 1, 1, 1}), 8.0, 4.0, peers, o, random);
  EXPECT_EQ(out.accepted.size(), 2u);  // 8 -> 6 = 1.5 x 4
  EXPECT_EQ(out.load, 6.0);
  EXPECT_EQ(peers[0].load + peers[1].load, 2.0);
}

TEST(TemperedTransfer, NothingToDoBelowThresholdOrWithoutPeers) {
  std::vector<Peer> none;
  Random random({3});
  const auto o = options(TemperedOptions::Criterion::relaxed, TemperedOptions::Cmf::normbymax);
  auto out = transfer(objects({4, 4}), 8.0, 2.0, none, o, random);
  EXPECT_TRUE(out.accepted.empty());
  EXPECT_EQ(out.rejected, 0);
  std::vector<Peer> peers = {{1, 0.0}};
  out = transfer(objects({4, 4}), 8.0, 8.0, peers, o, random);
  EXPECT_TRUE(out.accepted.empty());
  EXPECT_EQ(out.rejected, 0);
}

// transfer_in_turn (transfer=sequential, LBAF's transfer stage). One peer, so every draw picks it.
TemperedOptions turn_options(TemperedOptions::Criterion criterion) {
  TemperedOptions o;
  o.criterion = criterion;
  o.ordering = Ordering::arbitrary;
  return o;
}

TEST(TemperedTurn, CriterionReadsTheCurrentLoadNotTheBelief) {
  // The peer was empty when it gossiped, but earlier turns filled it to 5: nothing fits below 2.
  std::vector<Peer> peers{{7, 0.0}};
  std::vector<double> current{5.0};
  Random random({1});
  const auto out = transfer_in_turn(objects(five), 8.0, 2.0, peers, current,
                                    turn_options(TemperedOptions::Criterion::grapevine), random);
  EXPECT_TRUE(out.accepted.empty());
  EXPECT_EQ(out.rejected, 5);
  EXPECT_EQ(current[0], 5.0);
}

TEST(TemperedTurn, TraversalRestartsAfterEveryAcceptedTransfer) {
  // Average 1.5: 3 is rejected, 1 accepted (peer at 1), then 3 again and 0.5 (1 + 0.5 is not < 1.5).
  std::vector<Peer> peers{{7, 0.0}};
  std::vector<double> current{0.0};
  Random random({1});
  const auto out = transfer_in_turn(objects({3.0, 1.0, 0.5}), 4.5, 1.5, peers, current,
                                    turn_options(TemperedOptions::Criterion::grapevine), random);
  ASSERT_EQ(out.accepted.size(), 1U);
  EXPECT_EQ(out.accepted[0].object, 1U);
  EXPECT_EQ(out.rejected, 3);  // one pass per acceptance: 3; then 3 and 0.5
  EXPECT_EQ(out.load, 3.5);
  EXPECT_EQ(current[0], 1.0);
  EXPECT_EQ(peers[0].load, 1.0);
}

TEST(TemperedTurn, APeerNowHeavierThanTheSenderIsForgotten) {
  // Relaxed, average 1.5: 2 < 4 - 1 is accepted, the peer (believed 1 + 2 = 3) now outweighs the
  // sender (2) and is dropped, so the second object is never tried.
  std::vector<Peer> peers{{7, 1.0}};
  std::vector<double> current{1.0};
  Random random({1});
  const auto out = transfer_in_turn(objects({2.0, 2.0}), 4.0, 1.5, peers, current,
                                    turn_options(TemperedOptions::Criterion::relaxed), random);
  ASSERT_EQ(out.accepted.size(), 1U);
  EXPECT_EQ(out.rejected, 0);
  EXPECT_EQ(out.load, 2.0);
  EXPECT_EQ(current[0], 3.0);
}

TEST(TemperedSwap, OfferHoldsObjectsTooHeavyToMoveAloneLightestFirst) {
  // Load 10 against a peer of 7: gap 3. 0.5 and 2.5 could move alone, 10 cannot come back
  // balanced (10 >= 3 + 7), object 4 is fixed: 3, 6, 9 remain, lightest first.
  auto objs = objects({0.5, 3.0, 2.5, 6.0, 3.0, 9.0, 10.0});
  objs[4].migratable = false;
  EXPECT_EQ(load_swap_offer(objs, 10.0, 7.0, 8), (std::vector<std::size_t>{1, 3, 5}));
  EXPECT_EQ(load_swap_offer(objs, 10.0, 7.0, 2), (std::vector<std::size_t>{1, 3}));
  EXPECT_TRUE(load_swap_offer(objs, 10.0, 7.0, 0).empty());
  EXPECT_TRUE(load_swap_offer(objs, 7.0, 7.0, 8).empty());  // no gap, nothing to swap for
}

TEST(TemperedSwap, HeavyUnitForTheTwoLightObjectsThatEvenThePair) {
  // Sender 6 offers 3 and 3 to a receiver of 3 holding 1, 0.5, 0.5, 1: B = 3 - (6 - 3) / 2 = 1.5.
  // The best single (1) gives 5 and 4 (max 5); the pair 0.5 + 1 gives 4.5 and 4.5.
  const auto own = objects({1.0, 0.5, 0.5, 1.0});
  const std::vector<double> offered{3.0, 3.0};
  const LoadSwap swap = choose_load_swap(offered, own, 6.0, 3.0, TemperedOptions::Criterion::relaxed, 4.5);
  EXPECT_EQ(swap.unit, 0U);
  EXPECT_EQ(swap.back, (std::vector<std::size_t>{1, 3}));  // ascending load; ties in storage order
  EXPECT_EQ(swap.sender_after, 4.5);
  EXPECT_EQ(swap.after, 4.5);
}

TEST(TemperedSwap, FewerObjectsWinATie) {
  // Sender 6 offers 3 to a receiver of 4 holding 2, 1, 1: the 2 alone and the pair 1 + 1 both give
  // 5 and 5; one object moves rather than two.
  const std::vector<double> offered{3.0};
  const LoadSwap swap =
      choose_load_swap(offered, objects({2.0, 1.0, 1.0}), 6.0, 4.0, TemperedOptions::Criterion::relaxed, 5.0);
  EXPECT_EQ(swap.unit, 0U);
  EXPECT_EQ(swap.back, (std::vector<std::size_t>{0}));
  EXPECT_EQ(swap.sender_after, 5.0);
}

TEST(TemperedSwap, GreedyFillGivesBackSeveralObjects) {
  // Sender 8.25 offers 6 to a receiver of 3.75 holding 2, 1, 0.5, 0.25: B = 6 - 2.25 = 3.75, which
  // no single object (2: max 7.75) or pair (2 + 1: max 6.75) reaches; all four do (6 and 6).
  const std::vector<double> offered{6.0};
  const LoadSwap swap = choose_load_swap(offered, objects({2.0, 1.0, 0.5, 0.25}), 8.25, 3.75,
                                         TemperedOptions::Criterion::relaxed, 6.0);
  EXPECT_EQ(swap.unit, 0U);
  EXPECT_EQ(swap.back, (std::vector<std::size_t>{3, 2, 1, 0}));
  EXPECT_EQ(swap.sender_after, 6.0);
  EXPECT_EQ(swap.after, 6.0);
}

TEST(TemperedSwap, NothingWhenNoSetLowersTheMaximum) {
  // Sender 6, receiver 3 holding 0.25 only: B must lie in (5 - 3, 5); 0 and 0.25 do not.
  const std::vector<double> offered{5.0};
  auto own = objects({0.25, 2.5});
  own[1].migratable = false;  // 2.5 would fit, but it cannot move
  const LoadSwap swap = choose_load_swap(offered, own, 6.0, 3.0, TemperedOptions::Criterion::relaxed, 4.5);
  EXPECT_EQ(swap.unit, LoadSwap::npos);
  EXPECT_TRUE(swap.back.empty());
  // The grapevine criterion also keeps the receiver below the average: 3 + 3 - 1.5 = 4.5 is not.
  const std::vector<double> three{3.0};
  EXPECT_EQ(choose_load_swap(three, objects({1.0, 0.5}), 6.0, 3.0, TemperedOptions::Criterion::grapevine, 4.5).unit,
            LoadSwap::npos);
  EXPECT_EQ(choose_load_swap(three, objects({1.0, 0.5}), 6.0, 3.0, TemperedOptions::Criterion::grapevine, 4.75).unit,
            0U);
}

TEST(TemperedRandom, StreamsAreReproducibleAndDistinct) {
  Random a({1, 2, 3}), b({1, 2, 3}), c({1, 2, 4});
  for (int i = 0; i < 100; ++i) {
    const double x = a.real();
    EXPECT_EQ(x, b.real());
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
  }
  EXPECT_NE(Random({1, 2, 3}).below(1000000), c.below(1000000));
  for (int i = 0; i < 100; ++i) EXPECT_LT(a.below(7), 7u);
}

}  // namespace
}  // namespace tessera::lb::tempered
