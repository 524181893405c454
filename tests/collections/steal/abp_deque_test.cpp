#include "tessera/collections/steal/abp_deque.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::collections::steal {
namespace {

TEST(AbpDeque, OwnerTakesNewestFirstAndThievesOldestFirst) {
  AbpDeque<int> deque(8);
  for (int i = 1; i <= 4; ++i) deque.push(i);
  EXPECT_EQ(deque.size_hint(), 4);
  const StealResult<int> first = deque.steal();
  ASSERT_EQ(first.status, StealStatus::success);
  EXPECT_EQ(first.value, 1);
  EXPECT_EQ(deque.take(), 4);
  EXPECT_EQ(deque.take(), 3);
  EXPECT_EQ(deque.steal().value, 2);
  EXPECT_EQ(deque.take(), std::nullopt);
  EXPECT_EQ(deque.steal().status, StealStatus::empty);
  EXPECT_EQ(deque.size_hint(), 0);
}

// Section 35.3.3.3: emptying the deque moves head and tail back to the start of the array,
// so the slots are reused and the high-water mark stays at the deepest point reached.
TEST(AbpDeque, EmptyingResetsToTheStartOfTheArray) {
  AbpDeque<int> deque(3);
  deque.push(1);
  deque.push(2);
  EXPECT_EQ(deque.steal().value, 1);  // head at 1
  EXPECT_EQ(deque.take(), 2);         // the last element: taken by CAS, then reset
  for (int round = 0; round < 5; ++round) {
    deque.push(10 + round);
    deque.push(20 + round);
    deque.push(30 + round);  // fits only because the array restarted at slot 0
    EXPECT_EQ(deque.steal().value, 10 + round);
    EXPECT_EQ(deque.steal().value, 20 + round);
    EXPECT_EQ(deque.take(), 30 + round);
    EXPECT_EQ(deque.take(), std::nullopt);  // a thief took the rest: case 2, reset too
  }
  EXPECT_EQ(deque.high_water(), 3);
}

TEST(AbpDeque, AFullArrayRejectsAPushAndStaysIntact) {
  AbpDeque<int> deque(2);
  deque.push(1);
  deque.push(2);
  EXPECT_THROW(deque.push(3), std::length_error);
  EXPECT_EQ(deque.take(), 2);
  EXPECT_EQ(deque.take(), 1);
  EXPECT_EQ(deque.take(), std::nullopt);
}

// The fixed array's weakness, as the header says: head does not move back while the deque is
// non-empty, so slots stolen from stay unused until the owner empties it.
TEST(AbpDeque, StolenSlotsAreReusedOnlyOnceTheDequeEmpties) {
  AbpDeque<int> deque(2);
  deque.push(1);
  deque.push(2);
  EXPECT_EQ(deque.steal().value, 1);
  EXPECT_EQ(deque.size_hint(), 1);
  EXPECT_THROW(deque.push(3), std::length_error);
}

TEST(AbpDeque, CarriesMultiWordElementsIntact) {
  struct Wide {
    std::array<std::uint32_t, 7> words;
  };
  AbpDeque<Wide> deque(16);
  for (std::uint32_t i = 0; i < 10; ++i) deque.push(Wide{{i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6}});
  EXPECT_EQ(deque.steal().value.words, (std::array<std::uint32_t, 7>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(deque.take()->words, (std::array<std::uint32_t, 7>{9, 10, 11, 12, 13, 14, 15}));
}

TEST(AbpDeque, RejectsACapacityOutsideItsRange) {
  EXPECT_THROW(AbpDeque<int>(0), std::invalid_argument);
  EXPECT_THROW(AbpDeque<int>(-1), std::invalid_argument);
  EXPECT_THROW(AbpDeque<int>((std::int64_t{1} << 31) + 1), std::invalid_argument);
}

// The owner pushes kItems distinct values in bursts and takes some back, emptying the deque
// after every burst (each emptying resets head to slot 0 with a new tag, the ABA path), while
// two thieves steal until the owner is done and the deque is empty. Every value must be
// obtained exactly once, by exactly one thread. Also run under ThreadSanitizer.
TEST(AbpDeque, ConcurrentPushTakeStealDeliversEveryItemExactlyOnce) {
  constexpr std::int64_t kItems = 300'000;
  constexpr int kThieves = 2;
  constexpr std::int64_t kBurst = 7;
  AbpDeque<std::int64_t> deque(kBurst);
  std::atomic<bool> owner_done{false};
  std::vector<std::vector<std::int64_t>> got(kThieves + 1);
  std::vector<std::int64_t> lost_races(kThieves, 0);
  std::atomic<int> ready{0};

  std::vector<std::thread> thieves;
  for (int t = 0; t < kThieves; ++t) {
    thieves.emplace_back([&, t] {
      auto& mine = got[t + 1];
      ready.fetch_add(1);
      while (true) {
        const bool finished = owner_done.load(std::memory_order_acquire);
        const StealResult<std::int64_t> loot = deque.steal();
        if (loot) {
          mine.push_back(loot.value);
        } else if (loot.status == StealStatus::lost_race) {
          ++lost_races[t];
        } else if (finished) {
          return;  // empty after the owner stopped: nothing can appear any more
        }
      }
    });
  }
  while (ready.load() < kThieves) std::this_thread::yield();  // so that the three overlap
  auto& owner = got[0];
  std::int64_t next = 0;
  while (next < kItems) {
    for (std::int64_t i = 0; i < kBurst && next < kItems; ++i) {
      deque.push(next++);
      if (next % 3 == 0) {
        if (auto value = deque.take()) owner.push_back(*value);
      }
    }
    while (auto value = deque.take()) owner.push_back(*value);
  }
  owner_done.store(true, std::memory_order_release);
  for (auto& thief : thieves) thief.join();

  std::vector<int> seen(kItems, 0);
  std::int64_t total = 0;
  for (const auto& list : got) {
    total += static_cast<std::int64_t>(list.size());
    for (const std::int64_t value : list) {
      ASSERT_GE(value, 0);
      ASSERT_LT(value, kItems);
      ++seen[static_cast<std::size_t>(value)];
    }
  }
  EXPECT_EQ(total, kItems);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), kItems);
  EXPECT_EQ(deque.size_hint(), 0);
  EXPECT_LE(deque.high_water(), kBurst);
  std::printf("owner took %zu, thieves stole %zu and %zu (lost races %lld, %lld)\n", got[0].size(), got[1].size(),
              got[2].size(), static_cast<long long>(lost_races[0]), static_cast<long long>(lost_races[1]));
}

}  // namespace
}  // namespace tessera::collections::steal
