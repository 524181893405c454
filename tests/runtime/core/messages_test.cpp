// Point-to-point active messages: exact counts and checksums, all-to-all.
#include <tessera/runtime.hpp>
#include <tessera/runtime/hooks.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <thread>
#include <span>
#include <vector>

#include "../../support/test_runtime.hpp"

namespace {

struct Tally {
  std::vector<std::uint64_t> count_from;
  std::vector<std::uint64_t> sum_from;
};
Tally tally;

void record(int source, std::uint64_t sequence, std::uint64_t checksum, std::array<std::uint32_t, 4> payload) {
  std::uint64_t s = sequence;
  for (auto v : payload) s = s * 31 + v;
  if (s != checksum) tessera::fatal("payload from rank {} #{} corrupted", source, sequence);
  tally.count_from[source] += 1;
  tally.sum_from[source] += sequence;
}

TEST(Messages, EveryRankSendsKToEveryRank) {
  auto& rt = tessera::testing::runtime();
  const int p = rt.size();
  constexpr std::uint64_t k = 500;
  tally = Tally{std::vector<std::uint64_t>(p), std::vector<std::uint64_t>(p)};
  rt.collectives().barrier();
  for (std::uint64_t i = 0; i < k; ++i) {
    for (int dest = 0; dest < p; ++dest) {
      std::array<std::uint32_t, 4> payload{static_cast<std::uint32_t>(rt.rank()), static_cast<std::uint32_t>(dest),
                                           static_cast<std::uint32_t>(i), 0xabcdu};
      std::uint64_t s = i;
      for (auto v : payload) s = s * 31 + v;
      rt.send<&record>(dest, rt.rank(), i, s, payload);
    }
  }
  const std::uint64_t expected = static_cast<std::uint64_t>(p) * k;
  rt.run_until([&] { return std::accumulate(tally.count_from.begin(), tally.count_from.end(), 0ull) == expected; });
  for (int source = 0; source < p; ++source) {
    EXPECT_EQ(tally.count_from[source], k) << "from rank " << source;
    EXPECT_EQ(tally.sum_from[source], k * (k - 1) / 2) << "from rank " << source;
  }
  rt.collectives().barrier();
}

int chain_hops = 0;
void hop(tessera::Runtime& rt, int remaining) {
  ++chain_hops;
  if (remaining > 0) rt.send<&hop>((rt.rank() + 1) % rt.size(), remaining - 1);
}

TEST(Messages, HandlersSendFromHandlersWithRuntimeParameter) {
  auto& rt = tessera::testing::runtime();
  chain_hops = 0;
  rt.collectives().barrier();
  constexpr int hops = 40;
  if (rt.rank() == 0) rt.send<&hop>(0, hops * rt.size() - 1);
  rt.drain();
  EXPECT_EQ(rt.collectives().allreduce(chain_hops, tessera::op::sum{}), hops * rt.size());
  EXPECT_EQ(chain_hops, hops);
}

// Records packed by the caller (Runtime::send_record) keep their place among batched messages:
// per source, sequence numbers arrive in order, whether a record is small, eager-sized or bulk.
std::vector<std::uint64_t> next_from;
std::uint64_t ordered_received = 0;

void ordered(int source, std::uint64_t sequence, std::span<const std::byte> bytes) {
  if (sequence != next_from[source])
    tessera::fatal("from rank {}: message {} arrived when {} was expected", source, sequence, next_from[source]);
  for (std::size_t j = 0; j < bytes.size(); ++j)
    if (bytes[j] != static_cast<std::byte>(sequence + j)) tessera::fatal("from rank {}: message {} corrupted", source, sequence);
  ++next_from[source];
  ++ordered_received;
}

TEST(Messages, SentRecordsKeepTheirPlaceAmongBatchedMessages) {
  auto& rt = tessera::testing::runtime();
  const int p = rt.size();
  constexpr std::uint64_t k = 60;
  next_from.assign(p, 0);
  ordered_received = 0;
  rt.collectives().barrier();
  for (std::uint64_t i = 0; i < k; ++i) {
    // Every third message is a record: 20 KiB (one eager message) or 100 KiB (a bulk one).
    const std::size_t n = i % 3 != 0 ? 16 : (i % 2 == 0 ? 20 << 10 : 100 << 10);
    std::vector<std::byte> bytes(n);
    for (std::size_t j = 0; j < n; ++j) bytes[j] = static_cast<std::byte>(i + j);
    const std::span<const std::byte> view(bytes);
    for (int dest = 0; dest < p; ++dest) {
      if (i % 3 != 0) {
        rt.send<&ordered>(dest, rt.rank(), i, view);
        continue;
      }
      tessera::Buffer record = tessera::detail::hooks(rt).record_buffer(sizeof(int) + sizeof i + sizeof(std::uint64_t) + n);
      tessera::serial::encode(record, rt.rank());
      tessera::serial::encode(record, i);
      tessera::serial::encode(record, view);
      tessera::detail::hooks(rt).send_record<&ordered, tessera::detail::invoke_free<&ordered>>(dest, 0, 0, std::move(record));
    }
  }
  rt.run_until([&] { return ordered_received == static_cast<std::uint64_t>(p) * k; });
  EXPECT_EQ(next_from, std::vector<std::uint64_t>(p, k));
  rt.collectives().barrier();
}

// Messages to a target registered late are held until it is, and keep their arrival order with
// those that reach it after registration but before the held ones have run.
struct Sequence : tessera::detail::Resident {
  std::vector<std::uint64_t> seen;
};
void sequence_layout(std::uint64_t) {}
void sequence_invoker(tessera::Runtime& rt, const tessera::Envelope& envelope, std::span<const std::byte> payload) {
  tessera::serial::Reader reader(payload);
  tessera::detail::hooks(rt).target<Sequence>(envelope.target)->seen.push_back(tessera::serial::decode<std::uint64_t>(reader));
}

TEST(Messages, HeldMessagesToALateTargetKeepTheirOrder) {
  auto& rt = tessera::testing::runtime();
  const std::uint64_t id = tessera::detail::hooks(rt).next_collective_target_id();
  Sequence target;
  constexpr std::uint64_t k = 8;
  for (std::uint64_t i = 0; i < k; ++i) tessera::detail::hooks(rt).send_to<&sequence_layout, &sequence_invoker>(rt.rank(), id, 0, i);
  rt.progress();  // delivered here and held: nothing is registered under id yet
  EXPECT_TRUE(target.seen.empty());
  tessera::detail::hooks(rt).register_target(id, &target);
  // These reach the target in the next turn's local batch, before the held ones are released.
  for (std::uint64_t i = k; i < 2 * k; ++i) tessera::detail::hooks(rt).send_to<&sequence_layout, &sequence_invoker>(rt.rank(), id, 0, i);
  rt.run_until([&] { return target.seen.size() == 2 * k; });
  std::vector<std::uint64_t> expected(2 * k);
  std::iota(expected.begin(), expected.end(), std::uint64_t{0});
  EXPECT_EQ(target.seen, expected);
  tessera::detail::hooks(rt).unregister_target(id);
  rt.collectives().barrier();
}

bool woken = false;
void wake() { woken = true; }

// Idle accounting on the wall clock (timed on the TSC where that is a wall clock, timer.hpp): a
// rank that waits 50 ms for a message counts most of that as idle, and never more than it waited.
// The instrumentation subtracts this from the rank's load. (The lower bound leaves room for a rank
// descheduled before its first empty turn on shared cores; ticks left unconverted, or converted
// at a wrong rate, miss the bounds by orders of magnitude.)
TEST(Messages, AWaitForAMessageCountsAsIdleWallTime) {
  auto& rt = tessera::testing::runtime();
  if (rt.size() < 2) GTEST_SKIP() << "needs 2 ranks";
  tessera::detail::hooks(rt).account_idle(true, false);
  rt.collectives().barrier();
  if (rt.rank() == 0) {
    woken = false;
    const double idle_before = rt.idle_seconds();
    const double start = tessera::wall_time();
    rt.run_until([] { return woken; });
    const double waited = tessera::wall_time() - start;
    const double idle = rt.idle_seconds() - idle_before;
    EXPECT_GE(waited, 0.045);
    EXPECT_GE(idle, 0.5 * waited) << "waited " << waited << " s";
    EXPECT_LE(idle, 1.01 * waited + 1e-4) << "waited " << waited << " s";
  } else if (rt.rank() == 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    rt.send<&wake>(0);
  }
  rt.collectives().barrier();
}

}  // namespace
