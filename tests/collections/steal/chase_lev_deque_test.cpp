#include "tessera/collections/steal/chase_lev_deque.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::collections::steal {
namespace {

TEST(ChaseLevDeque, OwnerTakesNewestFirstAndThievesOldestFirst) {
  ChaseLevDeque<int> deque(4);
  for (int i = 1; i <= 4; ++i) {
    deque.push(i);
  }
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

TEST(ChaseLevDeque, GrowsByDoublingAndKeepsEveryElementInOrder) {
  ChaseLevDeque<std::int64_t> deque(2);
  // Steal a few first so that top is not 0 and the copy starts mid-ring.
  for (std::int64_t i = 0; i < 3; ++i) {
    deque.push(i);
  }
  EXPECT_EQ(deque.steal().value, 0);
  EXPECT_EQ(deque.steal().value, 1);
  for (std::int64_t i = 3; i < 1000; ++i) {
    deque.push(i);
  }
  EXPECT_EQ(deque.capacity(), 1024);
  EXPECT_EQ(deque.size_hint(), 998);
  for (std::int64_t i = 2; i < 500; ++i) {
    EXPECT_EQ(deque.steal().value, i);
  }
  for (std::int64_t i = 999; i >= 500; --i) {
    EXPECT_EQ(deque.take(), i);
  }
  EXPECT_EQ(deque.take(), std::nullopt);
}

TEST(ChaseLevDeque, CarriesMultiWordElementsIntact) {
  struct Wide {
    std::array<std::uint32_t, 7> words;  // 28 bytes: four atomic words per slot
  };
  ChaseLevDeque<Wide> deque(2);
  for (std::uint32_t i = 0; i < 10; ++i) {
    deque.push(Wide{{i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6}});
  }
  const Wide stolen = deque.steal().value;
  EXPECT_EQ(stolen.words, (std::array<std::uint32_t, 7>{0, 1, 2, 3, 4, 5, 6}));
  const Wide taken = *deque.take();
  EXPECT_EQ(taken.words, (std::array<std::uint32_t, 7>{9, 10, 11, 12, 13, 14, 15}));
}

TEST(ChaseLevDeque, RejectsACapacityThatIsNotAPowerOfTwo) {
  EXPECT_THROW(ChaseLevDeque<int>(3), std::invalid_argument);
  EXPECT_THROW(ChaseLevDeque<int>(1), std::invalid_argument);
  EXPECT_THROW(ChaseLevDeque<int>(0), std::invalid_argument);
}

// The owner pushes kItems distinct values, taking one back after every third push, while
// three thieves steal until the owner is done and the deque is empty. Every value must be
// obtained exactly once, by exactly one thread. Run under ThreadSanitizer as well.
TEST(ChaseLevDeque, ConcurrentPushTakeStealDeliversEveryItemExactlyOnce) {
  constexpr std::int64_t kItems = 200'000;
  constexpr int kThieves = 3;
  ChaseLevDeque<std::int64_t> deque(2);  // small, so growth happens under contention
  std::atomic<bool> owner_done{false};
  std::vector<std::vector<std::int64_t>> got(kThieves + 1);

  std::vector<std::thread> thieves;
  for (int t = 0; t < kThieves; ++t) {
    thieves.emplace_back([&, t] {
      auto& mine = got[t + 1];
      while (true) {
        const bool finished = owner_done.load(std::memory_order_acquire);
        const StealResult<std::int64_t> loot = deque.steal();
        if (loot) {
          mine.push_back(loot.value);
        } else if (loot.status == StealStatus::empty && finished) {
          return;  // empty after the owner stopped: nothing can appear any more
        }
      }
    });
  }
  auto& owner = got[0];
  for (std::int64_t i = 0; i < kItems; ++i) {
    deque.push(i);
    if (i % 3 == 2) {
      if (auto value = deque.take()) {
        owner.push_back(*value);
      }
    }
  }
  while (auto value = deque.take()) {
    owner.push_back(*value);
  }
  owner_done.store(true, std::memory_order_release);
  for (auto& thief : thieves) {
    thief.join();
  }

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
}

}  // namespace
}  // namespace tessera::collections::steal
