// The work model (lb/work_model.hpp): exact per-rank work and memory, the memory fields as LBAF
// reads them from vt's user_defined, and TemperedLB balancing work and honouring memory limits on
// hand-made cases whose plans are worked out in the comments.

#include <gtest/gtest.h>

#include "delivery_order.hpp"
#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/tempered_random.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lb/virtual_backend.hpp"
#include "tessera/lb/work_model.hpp"
#include "../support/lb_inputs.hpp"

namespace tessera::lb {
namespace {

ObjectId id(std::uint64_t v) { return ObjectId::packed(v); }
using testing::move;

using testing::make_ranks;

TemperedLB create(std::string_view args) {
  auto strategy = Registry::builtin().create("TemperedLB", args);
  return *dynamic_cast<TemperedLB*>(strategy.get());
}

Plan run(Strategy& strategy, const std::vector<StrategyInput>& ranks) {
  comm::VirtualBackend backend(static_cast<Rank>(ranks.size()));
  return strategy.run(backend, ranks);
}

TEST(WorkModel, RankWorkCountsOnlyOffRankBytesAndHoming) {
  // gamma = 1 s per intra-node byte: without a node map (a node per rank, node -1 here) no byte is
  // intra-node, so it adds nothing (until nodes it was LBAF's constant, 1 s on every rank).
  const WorkModel model{2.0, 0.5, 1.0, 0.25, 0.0};
  // a -> b 100 bytes, b -> c 40 bytes, c -> a 10 bytes.
  const std::vector<HalfEdge> a{{id(2), 100, true}, {id(3), 10, false}};
  const std::vector<HalfEdge> b{{id(1), 100, false}, {id(3), 40, true}};
  const LbObject oa{id(1), 3.0, true, {0, 0, 7, 8.0}};  // shared block 7, 8 bytes
  const LbObject ob{id(2), 1.0, true, {}};
  RankWork rank(model, 0, 2.0, 0.0);
  rank.add(oa, a, 0);
  // Sent 100 (a -> b off-rank), received 10: 2 x 3 + 0.5 x 100 = 56; the block is at home.
  EXPECT_DOUBLE_EQ(rank.work(), 56.0);
  EXPECT_DOUBLE_EQ(rank.work_with(ob, b, 0), 2 * 4.0 + 0.5 * 40);  // a -> b is free now
  rank.add(ob, b, 0);
  EXPECT_DOUBLE_EQ(rank.work(), 28.0);
  EXPECT_DOUBLE_EQ(rank.work_without(oa, a, 0), 2 * 1.0 + 0.5 * 100);  // b receives from a
  rank.remove(oa, a, 0);
  EXPECT_DOUBLE_EQ(rank.work(), 52.0);
  // A block homed on rank 3 costs delta x its bytes once, however many of its objects are here.
  RankWork away(model, 0, 2.0, 0.0);
  away.add(oa, {}, 3);
  away.add(LbObject{id(9), 0.0, true, {0, 0, 7, 8.0}}, {}, 3);
  EXPECT_DOUBLE_EQ(away.work(), 2 * 3.0 + 0.25 * 8);
}

TEST(WorkModel, MemoryIsWorkingBytesBlocksFootprintsAndTheLargestWorkingBytes) {
  const WorkModel model;
  RankWork rank(model, 0, 1.0, 1000.0);
  rank.add(LbObject{id(1), 1.0, true, {10, 300, 4, 500}}, {}, 0);
  rank.add(LbObject{id(2), 1.0, true, {20, 200, 4, 500}}, {}, 0);
  EXPECT_DOUBLE_EQ(rank.memory(), 1000 + 500 + 30 + 300);
  EXPECT_DOUBLE_EQ(rank.memory_with(LbObject{id(3), 1.0, true, {5, 900, 6, 50}}, 0), 1000 + 550 + 35 + 900);
  rank.remove(LbObject{id(1), 1.0, true, {10, 300, 4, 500}}, {}, 0);
  EXPECT_DOUBLE_EQ(rank.memory(), 1000 + 500 + 20 + 200);
}

TEST(WorkModel, ReadsLbafMemoryFieldsAndRankMetadata) {
  // LBAF's user-defined-memory-toy-problem: rank 0 holds 11 tasks of 1024 footprint bytes in three
  // shared blocks (ids 0, 4, 8) of 1.6e9 bytes, 110e6 working bytes each, 980e6 rank working bytes.
  const LbData data = read_lb_data(TESSERA_LBAF_DATA_DIR "/data/user-defined-memory-toy-problem/toy_mem");
  const StrategyInput rank0 = strategy_input(data.ranks[0], 0);
  EXPECT_DOUBLE_EQ(rank0.working_bytes, 980e6);
  EXPECT_EQ(rank0.objects[0].memory, (ObjectMemory{1024, 110e6, 4, 1.6e9}));
  EXPECT_DOUBLE_EQ(rank_memory(rank0), 980e6 + 3 * 1.6e9 + 11 * 1024 + 110e6);
  const WorkModel limited{1, 0, 0, 0, 5.8e9};
  std::vector<StrategyInput> ranks;
  for (const auto& r : data.ranks) ranks.push_back(strategy_input(r, 0));
  EXPECT_GE(memory_violations(limited, ranks), 1);
  EXPECT_EQ(memory_violations(WorkModel{}, ranks), 0);

  RankData bad = data.ranks[0];
  bad.phases[0].tasks[0].user_defined = R"({"task_footprint_bytes": -1})";
  EXPECT_THROW(strategy_input(bad, 0), tessera::Error);
  bad.phases[0].tasks[0].user_defined.clear();
  bad.metadata_extra = R"({"rank_alpha": 0.5, "memory_limit": 4096})";
  const StrategyInput meta = strategy_input(bad, 0);
  EXPECT_EQ(meta.rank_alpha, 0.5);
  EXPECT_EQ(meta.memory_limit, 4096.0);
  EXPECT_DOUBLE_EQ(WorkModel{}.limit_of(meta), 4096.0);
  EXPECT_FALSE(WorkModel{}.load_only_here(meta));
}

TEST(WorkModel, EdgesRecordedTwiceCountOnce) {
  auto ranks = make_ranks({{1}, {1}});
  ranks[0].edges.push_back(LbEdge{id(1), id(2), 1, 64});
  ranks[1].edges.push_back(LbEdge{id(1), id(2), 1, 64});
  ranks[1].edges.push_back(LbEdge{id(2), id(99), 1, 1e6});  // 99 is no object: dropped
  const WorkModel model{1, 1, 0, 0, 0};
  EXPECT_EQ(model.rank_work(ranks), (std::vector<double>{65, 65}));
}

// Rank 0 holds A = 3 and B = 3, which exchange 1000 bytes, and F = 1; rank 1 holds 0.5, rank 2
// 4.5, rank 3 4 (average 4; rank 1 is the only underloaded rank). Load only, rank 0 gives A
// (3 < 7 - 0.5) and stops at 4, splitting A from B. With beta = 0.003 s/byte, separating them
// costs 3 s on both ranks: A and B fail max(W_x', W_p') < 7 (W_p' = 4 + 3), F passes (6 and 1.5).
std::vector<StrategyInput> talking_pair() {
  auto ranks = make_ranks({{3, 3, 1}, {0.5}, {4.5}, {4}});
  ranks[0].edges.push_back(LbEdge{id(1), id(2), 10, 1000});
  return ranks;
}

TEST(TemperedWork, LoadOnlySplitsTheTalkingPairTheWorkModelKeepsIt) {
  const std::string keys = "ordering=element_id iters=1 trials=1 knowledge=complete deterministic=true";
  auto load_only = create(keys);
  EXPECT_EQ(run(load_only, talking_pair()).migrations, (std::vector<Migration>{move(1, 0, 1)}));

  auto work = create(keys + " beta=0.003");
  EXPECT_EQ(run(work, talking_pair()).migrations, (std::vector<Migration>{move(3, 0, 1)}));
  const auto& report = work.report();
  EXPECT_DOUBLE_EQ(report.initial_imbalance, 7.0 / 4.0 - 1.0);
  ASSERT_EQ(report.iterations.size(), 1u);
  EXPECT_EQ(report.iterations[0].transfers, 1);
  // A and B on rank 0; rank 2 keeps its 4.5, heavier than the average (keep_heaviest), untried.
  EXPECT_EQ(report.iterations[0].rejected, 2);
  EXPECT_EQ(report.iterations[0].rejected_memory, 0);
  EXPECT_DOUBLE_EQ(report.best_imbalance, 6.0 / 4.0 - 1.0);  // works 6, 1.5, 4.5, 4

  // The load-only plan, judged in work: rank 0 pays 4 + 3, rank 1 3.5 + 3 (I = 7 / 5.5 - 1).
  auto split = talking_pair();
  split[1].objects.push_back(split[0].objects[0]);
  split[0].objects.erase(split[0].objects.begin());
  const auto w = WorkModel{1, 0.003, 0, 0, 0}.rank_work(split);
  EXPECT_DOUBLE_EQ(w[0], 7.0);
  EXPECT_DOUBLE_EQ(w[1], 6.5);
}

TEST(TemperedWork, MemoryLimitForbidsTheOnlyImprovingMove) {
  // Rank 0 holds X = 3 and Y = 1 (1000 footprint bytes each), rank 1 nothing but a 500-byte limit
  // in its metadata. Load only, Y would move (1 < 4 - 0; X, above the average 2, stays: the
  // keep_heaviest key); under the limit nothing fits.
  auto ranks = make_ranks({{3, 1}, {}});
  for (auto& o : ranks[0].objects) o.memory.footprint_bytes = 1000;
  ranks[1].memory_limit = 500;
  auto lb = create("ordering=element_id iters=1 trials=1 knowledge=complete deterministic=true");
  EXPECT_TRUE(run(lb, ranks).migrations.empty());
  ASSERT_EQ(lb.report().iterations.size(), 1u);
  EXPECT_EQ(lb.report().iterations[0].rejected_memory, 1);
  EXPECT_EQ(lb.report().iterations[0].transfers, 0);
  // The same limit as a key applies to every rank (rank 0 holds 2000 bytes: it only sheds).
  ranks[1].memory_limit.reset();
  auto keyed = create("ordering=element_id iters=1 trials=1 knowledge=complete deterministic=true memory_limit=1500");
  EXPECT_EQ(run(keyed, ranks).migrations, (std::vector<Migration>{move(2, 0, 1)}));
}

TEST(TemperedWork, ReceiverRefusesWhatTwoSendersTogetherWouldOverfill) {
  // Ranks 0 and 1 each send their 2 (1000 footprint bytes) to rank 2, whose limit fits one: each
  // sender sees 1000 bytes of headroom, the receiver admits the more loaded sender's object.
  auto ranks = make_ranks({{2, 1.5}, {2, 1}, {}});
  for (std::size_t r = 0; r < 2; ++r) ranks[r].objects[0].memory.footprint_bytes = 1000;
  ranks[2].memory_limit = 1000;
  auto lb = create("ordering=element_id iters=1 trials=1 knowledge=complete deterministic=true admit=all");
  EXPECT_EQ(run(lb, ranks).migrations, (std::vector<Migration>{move(1, 0, 2)}));
  EXPECT_EQ(lb.report().iterations[0].rejected_memory, 1);
}

TEST(TemperedWork, ClusterSwapMakesRoomWhereAOneWayMoveBreaksTheLimit) {
  // Rank 0: objects 1 (3 s) and 2 (1 s) share block 10 (100 bytes), object 3 (4 s) is fixed.
  // Rank 1: object 4 (1 s) alone in block 20 (100 bytes). Limit 150 bytes a rank, average 4.5.
  // Rank 1 has 50 bytes of headroom, so block 10 cannot go there one way; rank 0 proposes a swap
  // (it knows rank 1's cluster from the inform stage): object 1 (max(1 + 3 - 1, 5 + 1) = 6 < 8),
  // then object 2 follows its block (max(3 + 1, 4) < 5). Rank 0 then holds no block, so it can
  // take block 20 back; rank 1 admits the unit in exchange for cluster 20: work 4 and 5, both
  // under the sender's 8, 100 bytes on each rank.
  auto ranks = make_ranks({{3, 1, 4}, {1}});
  for (auto* o : {&ranks[0].objects[0], &ranks[0].objects[1]}) o->memory = ObjectMemory{0, 0, 10, 100};
  ranks[0].objects[2].migratable = false;
  ranks[1].objects[0].memory = ObjectMemory{0, 0, 20, 100};
  const std::vector<Migration> swapped{move(1, 0, 1), move(2, 0, 1), move(4, 1, 0)};
  for (const char* knowledge : {"knowledge=complete", "knowledge=log"}) {
    auto lb = create(std::string("ordering=element_id iters=1 trials=1 deterministic=true memory_limit=150 ") + knowledge);
    EXPECT_EQ(run(lb, ranks).migrations, swapped) << knowledge;
    EXPECT_EQ(lb.report().iterations[0].rejected_memory, 0) << knowledge;
    EXPECT_EQ(lb.report().iterations[0].transfers, 3) << knowledge;
  }
  // A one-way move is all the load-only run makes, and it breaks the limit.
  auto load_only = create("ordering=element_id iters=1 trials=1 deterministic=true knowledge=complete");
  EXPECT_EQ(run(load_only, ranks).migrations, (std::vector<Migration>{move(1, 0, 1)}));
  // Rank 0 cannot take block 20 back while block 10 stays with object 2 (fixed here): no swap.
  ranks[0].objects[1].migratable = false;
  auto stuck = create("ordering=element_id iters=1 trials=1 deterministic=true knowledge=complete memory_limit=150");
  EXPECT_TRUE(run(stuck, ranks).migrations.empty());
  EXPECT_EQ(stuck.report().iterations[0].rejected_memory, 1);
}

TEST(TemperedWork, TwoClusterSwapsInOneIterationShareTheSendersMemory) {
  // Rank 0: objects 1 and 2 (4 s each) alone in blocks 10 and 11, object 3 (4 s) fixed. Ranks 1
  // and 2 each hold two clusters of one object, 1 s and 0.5 s, in blocks 20, 21 and 30, 31.
  // Blocks are 100 bytes, the limit 250 a rank, the average 5: ranks 1 and 2 are full (a third block is 300 bytes), so both moves
  // are refused for memory and only swaps place them. Object 1 goes first (to the peer the CMF
  // draws; it then sits at the average, so object 2 goes to the other): its best swap takes back
  // the 0.5 s cluster (max(1.5 + 4 - 0.5, 8 + 0.5) = 8.5 < 12). Object 2's swap is judged with
  // that 0.5 s reserved: max(5, 4 + 0.5 + 0.5) = 5 < 8. With both units gone rank 0 holds no
  // block, 250 bytes of room: each swap gets its unit's 100 bytes and half of the 50 left, enough
  // for a 100-byte block; and each receiver may give back at most the 0.5 s the sender reserved.
  // Every rank ends at 5 s and 200 bytes; with one swap per sender, object 2 could not leave.
  auto ranks = make_ranks({{4, 4, 4}, {1, 0.5}, {1, 0.5}});
  ranks[0].objects[0].memory = ObjectMemory{0, 0, 10, 100};
  ranks[0].objects[1].memory = ObjectMemory{0, 0, 11, 100};
  ranks[0].objects[2].migratable = false;
  ranks[1].objects[0].memory = ObjectMemory{0, 0, 20, 100};
  ranks[1].objects[1].memory = ObjectMemory{0, 0, 21, 100};
  ranks[2].objects[0].memory = ObjectMemory{0, 0, 30, 100};
  ranks[2].objects[1].memory = ObjectMemory{0, 0, 31, 100};
  for (const char* knowledge : {"knowledge=complete", "knowledge=log"}) {
    auto lb = create(std::string("ordering=element_id iters=1 trials=1 deterministic=true memory_limit=250 ") + knowledge);
    const Plan plan = run(lb, ranks);
    auto moves = plan.migrations;
    std::sort(moves.begin(), moves.end(), [](const Migration& a, const Migration& b) { return a.object < b.object; });
    ASSERT_EQ(moves.size(), 4U) << knowledge;
    // Objects 1 and 2 to distinct peers, and each peer's 0.5 s cluster (5 and 7) back to rank 0.
    EXPECT_EQ(moves[0].object, id(1));
    EXPECT_EQ(moves[1].object, id(2));
    EXPECT_NE(moves[0].to, moves[1].to);
    EXPECT_EQ(moves[2], move(5, 1, 0));
    EXPECT_EQ(moves[3], move(7, 2, 0));
    EXPECT_EQ(lb.report().iterations[0].rejected_memory, 0) << knowledge;
    EXPECT_EQ(lb.report().iterations[0].transfers, 4) << knowledge;
    EXPECT_DOUBLE_EQ(lb.report().iterations[0].imbalance, 0.0) << knowledge;
  }
}

TEST(TemperedWork, DeterministicPlanDoesNotDependOnDeliveryOrder) {
  // 64 ranks, 400 objects on the first 8, a ring of edges between consecutive objects, shared
  // blocks and footprints under a limit: the live-run guarantee of deterministic mode, with the
  // directory exchange and the returns of the work model in the message pattern.
  std::vector<StrategyInput> ranks(64);
  for (Rank r = 0; r < 64; ++r) ranks[static_cast<std::size_t>(r)].rank = r;
  tempered::Random random({5});
  for (std::uint64_t i = 0; i < 400; ++i) {
    auto& rank = ranks[random.below(8)];
    rank.objects.push_back(LbObject{id(i), 0.01 + random.real(), true, {100, 50, static_cast<std::int64_t>(i % 3), 400}});
    rank.edges.push_back(LbEdge{id(i), id((i + 1) % 400), 1, 1000 * random.real()});
  }
  auto lb = create("knowledge=user rounds=3 fanout=4 iters=3 deterministic=true seed=3 beta=1e-4 delta=1e-4 memory_limit=4000");
  const Plan fifo = testing::expect_same_in_any_delivery_order(lb, ranks);
  EXPECT_FALSE(fifo.migrations.empty());
  // The plan keeps every rank within the limit, and lowers I of work.
  const WorkModel model{1, 1e-4, 0, 1e-4, 4000};
  const auto after = apply_plan(ranks, fifo);
  EXPECT_EQ(memory_violations(model, after), 0);
  const auto before_work = model.rank_work(ranks);
  const auto after_work = model.rank_work(after, ranks);  // blocks homed where they started
  const auto imbalance = [](const std::vector<double>& w) {
    double max = 0, sum = 0;
    for (double x : w) max = std::max(max, x), sum += x;
    return max / (sum / static_cast<double>(w.size())) - 1;
  };
  EXPECT_LT(imbalance(after_work), imbalance(before_work));
  EXPECT_NEAR(imbalance(after_work), lb.report().best_imbalance, 1e-9);
}

TEST(GreedyAndHier, ShedObjectsGoOnlyWhereTheyFit) {
  // Rank 0 holds X = 3 and Y = 1 (1000 footprint bytes each), rank 1 Z = 2.5, rank 2 nothing
  // (average 13/6). All three objects are shed; X and Z land back on ranks 0 and 1 (ties go to
  // the lower rank), and Y would go to empty rank 2, whose 500-byte limit leaves it to rank 1.
  auto ranks = make_ranks({{3, 1}, {2.5}, {}});
  for (auto& o : ranks[0].objects) o.memory.footprint_bytes = 1000;
  for (std::string_view name : {"GreedyLB", "HierLB"}) {
    SCOPED_TRACE(name);
    const std::string args = name == "HierLB" ? "branching=2" : "";
    auto free = Registry::builtin().create(name, args);
    EXPECT_EQ(run(*free, ranks).migrations, (std::vector<Migration>{move(2, 0, 2)}));
    auto limited_ranks = ranks;
    limited_ranks[2].memory_limit = 500;
    EXPECT_EQ(run(*free, limited_ranks).migrations, (std::vector<Migration>{move(2, 0, 1)}));
    // As a key the limit binds every rank: rank 0 (2000 bytes) and rank 1 can take nothing more.
    auto keyed = Registry::builtin().create(name, args + " memory_limit=500");
    EXPECT_TRUE(run(*keyed, ranks).migrations.empty());
  }
}

TEST(TemperedWork, SequentialTransferRefusesTheModel) {
  auto lb = create("transfer=sequential beta=1");
  EXPECT_THROW(run(lb, talking_pair()), ArgumentError);
}

}  // namespace
}  // namespace tessera::lb
