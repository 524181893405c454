// The typed communication suite over virtual ranks, plus what only the virtual backend promises:
// a global FIFO delivery order and per-rank accounting.

#include <gtest/gtest.h>

#include "comm_suite.hpp"
#include "tessera/lb/virtual_backend.hpp"

namespace tessera::lb::comm::testing {
namespace {

template <Rank P>
struct VirtualFactory {
  static std::unique_ptr<Backend> make() { return std::make_unique<VirtualBackend>(P); }
};

using OneRank = VirtualFactory<1>;
using FiveRanks = VirtualFactory<5>;
using ManyRanks = VirtualFactory<64>;

}  // namespace

INSTANTIATE_TYPED_TEST_SUITE_P(Virtual1, CommSuite, OneRank);
INSTANTIATE_TYPED_TEST_SUITE_P(Virtual5, CommSuite, FiveRanks);
INSTANTIATE_TYPED_TEST_SUITE_P(Virtual64, CommSuite, ManyRanks);

namespace {

struct Log {
  std::vector<std::pair<Rank, std::int32_t>>* order;
  Handler<Hello>* relay;
  void on_hello(Communicator& ctx, const Hello& m) {
    order->emplace_back(ctx.rank(), m.seq);
    // The first message rank 2 gets is passed on to rank 0: a message sent during a wave.
    if (ctx.rank() == 2 && m.seq == 0) ctx.send(0, *relay, Hello{2, 99});
  }
};

TEST(VirtualBackend, DeliversInWavesGroupedByDestination) {
  VirtualBackend backend(3);
  std::vector<std::pair<Rank, std::int32_t>> order;
  Handler<Hello> relay{};
  Team<Log> team(backend, [&](Rank) { return Log{&order, &relay}; });
  relay = team.handler<&Log::on_hello>();
  team.step([&](Log&, Communicator& ctx) {
    ctx.send(2 - ctx.rank(), relay, Hello{ctx.rank(), 10 * ctx.rank()});
    ctx.send(0, relay, Hello{ctx.rank(), 10 * ctx.rank() + 1});
  });
  team.run_until_quiet();
  // First wave: rank 0's four in send order, then rank 1's, then rank 2's; the relay comes after.
  const std::vector<std::pair<Rank, std::int32_t>> expected{{0, 1}, {0, 11}, {0, 20}, {0, 21}, {1, 10}, {2, 0}, {0, 99}};
  EXPECT_EQ(order, expected);
}

TEST(VirtualBackend, CountsRoundsOnTheCriticalPath) {
  // Two waves of messages (the relay waits on rank 2's first message), then run_until_quiet's own
  // wave of 2 ceil(log2 3) = 4 rounds; an allreduce adds another 4.
  VirtualBackend backend(3);
  std::vector<std::pair<Rank, std::int32_t>> order;
  Handler<Hello> relay{};
  Team<Log> team(backend, [&](Rank) { return Log{&order, &relay}; });
  relay = team.handler<&Log::on_hello>();
  EXPECT_EQ(backend.wave_rounds(), 4);
  team.step([&](Log&, Communicator& ctx) {
    if (ctx.rank() == 2) ctx.send(2, relay, Hello{2, 0});
  });
  team.run_until_quiet();
  EXPECT_EQ(backend.critical_path_rounds(), 2 + 4);
  EXPECT_EQ(team.allreduce(ReduceOp::sum, [](Log&) { return 1.0; }), 3.0);
  EXPECT_EQ(backend.critical_path_rounds(), 2 + 4 + 4);
  backend.reset_accounts();
  EXPECT_EQ(backend.critical_path_rounds(), 0);
}

struct Busy {
  double sink = 0.0;
  void on_hello(Communicator&, const Hello& m) {
    for (int i = 0; i < 2'000'000; ++i) sink += 1e-9 * (i ^ m.seq);
  }
};

TEST(VirtualBackend, AccountsMessagesBytesAndCpuToTheReceivingRank) {
  VirtualBackend backend(4, VirtualBackend::CpuTiming::on);
  Team<Busy> team(backend, [](Rank) { return Busy{}; });
  const auto h = team.handler<&Busy::on_hello>();
  team.step([&](Busy&, Communicator& ctx) {
    if (ctx.rank() != 3) ctx.send(3, h, Hello{ctx.rank(), 1});
  });
  team.run_until_quiet();
  EXPECT_EQ(backend.account(3).messages_received, 3);
  EXPECT_EQ(backend.account(3).bytes_received, static_cast<std::int64_t>(3 * sizeof(Hello)));
  EXPECT_EQ(backend.account(0).messages_sent, 1);
  EXPECT_EQ(backend.account(0).bytes_sent, static_cast<std::int64_t>(sizeof(Hello)));
  EXPECT_EQ(backend.account(0).messages_received, 0);
  EXPECT_EQ(backend.busiest_rank(), 3);
  EXPECT_GT(backend.account(3).cpu_seconds, 0.0);
  EXPECT_NEAR(backend.total_cpu_seconds(),
              backend.account(0).cpu_seconds + backend.account(1).cpu_seconds +
                  backend.account(2).cpu_seconds + backend.account(3).cpu_seconds,
              1e-12);
  backend.reset_accounts();
  EXPECT_EQ(backend.account(3).messages_received, 0);
  EXPECT_EQ(backend.account(3).cpu_seconds, 0.0);
}

TEST(VirtualBackend, RejectsBadRankCountsAndRemovedHandlers) {
  EXPECT_THROW(VirtualBackend(0), std::invalid_argument);
  VirtualBackend backend(2);
  EXPECT_THROW((void)backend.account(2), std::out_of_range);
  HandlerId stale = 0;
  {
    Team<Busy> team(backend, [](Rank) { return Busy{}; });
    stale = team.handler<&Busy::on_hello>().id;
  }
  backend.send(0, 1, stale, to_bytes(Hello{}));
  EXPECT_THROW(backend.run_until_quiet(), std::logic_error);
}

TEST(Serialize, TruncatedAndOverlongPayloadsAreRejected) {
  Announcement a{"hello", {1, 2, 3}};
  Payload bytes = to_bytes(a);
  const auto back = from_bytes<Announcement>(bytes);
  EXPECT_EQ(back.text, "hello");
  EXPECT_EQ(back.values, (std::vector<std::int64_t>{1, 2, 3}));
  Payload shorter(bytes.begin(), bytes.end() - 1);
  EXPECT_THROW(from_bytes<Announcement>(shorter), std::out_of_range);
  bytes.push_back(std::byte{0});
  EXPECT_THROW(from_bytes<Announcement>(bytes), std::length_error);
}

}  // namespace
}  // namespace tessera::lb::comm::testing
