#include "tessera/collections/steal/split_deque.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::collections::steal {
namespace {

std::vector<int> contents(const StealTicket<int>& ticket) {
  return {ticket.tasks.begin(), ticket.tasks.end()};
}

TEST(SplitDeque, ReleasesHalfOfTheLocalPartWhenTheSharedPartIsEmpty) {
  SplitDeque<int> deque(8);
  ASSERT_TRUE(deque.push(1));  // half of one task is none: all stays local
  EXPECT_EQ(deque.local_size(), 1);
  EXPECT_EQ(deque.shared_size(), 0);
  ASSERT_TRUE(deque.push(2));  // shared empty: the older of the two becomes shared
  EXPECT_EQ(deque.local_size(), 1);
  EXPECT_EQ(deque.shared_size(), 1);
  ASSERT_TRUE(deque.push(3));
  ASSERT_TRUE(deque.push(4));
  EXPECT_EQ(deque.local_size(), 3);
  EXPECT_EQ(deque.shared_size(), 1);
}

TEST(SplitDeque, ThiefTakesTheOldestOwnerTheNewestAndTheOwnerReacquiresSharedWork) {
  SplitDeque<int> deque(8);
  for (int task = 1; task <= 4; ++task) {
    ASSERT_TRUE(deque.push(task));
  }
  const auto ticket = deque.steal_begin();
  ASSERT_TRUE(ticket.has_value());
  EXPECT_EQ(contents(*ticket), std::vector<int>{1});
  EXPECT_EQ(deque.shared_size(), 0);
  EXPECT_EQ(deque.pop(), 4);  // and, the shared part being empty, task 2 is released
  EXPECT_EQ(deque.shared_size(), 1);
  EXPECT_EQ(deque.local_size(), 1);
  EXPECT_EQ(deque.pop(), 3);
  EXPECT_EQ(deque.local_size(), 0);
  EXPECT_EQ(deque.pop(), 2);  // local part empty: acquired back from the shared part
  EXPECT_EQ(deque.pop(), std::nullopt);
  EXPECT_FALSE(deque.steal_begin().has_value());
  deque.steal_complete(*ticket);
}

TEST(SplitDeque, StealTakesTheOlderHalfRoundedUp) {
  SplitDeque<int> deque(16);
  // Pushing 1..8 releases 1 (at push 2), then 2 and 3 (at push... once shared is empty).
  for (int task = 1; task <= 8; ++task) {
    ASSERT_TRUE(deque.push(task));
  }
  ASSERT_EQ(deque.shared_size(), 1);
  const auto one = deque.steal_begin();  // shared {1}: ceil(1/2) = 1
  EXPECT_EQ(contents(*one), std::vector<int>{1});
  ASSERT_TRUE(deque.push(9));  // shared empty: releases half of local {2..9}: {2, 3, 4, 5}
  EXPECT_EQ(deque.shared_size(), 4);
  EXPECT_EQ(deque.local_size(), 4);
  const auto two = deque.steal_begin();  // ceil(4/2) = 2
  EXPECT_EQ(contents(*two), (std::vector<int>{2, 3}));
  const auto three = deque.steal_begin();  // ceil(2/2) = 1
  EXPECT_EQ(contents(*three), std::vector<int>{4});
  const auto four = deque.steal_begin();  // ceil(1/2) = 1
  EXPECT_EQ(contents(*four), std::vector<int>{5});
  EXPECT_FALSE(deque.steal_begin().has_value());
  for (const auto& ticket : {one, two, three, four}) {
    deque.steal_complete(*ticket);
  }
}

TEST(SplitDeque, SlotsOfAStealInFlightAreNotReusedUntilItCompletes) {
  SplitDeque<int> deque(4);
  for (int task = 1; task <= 4; ++task) {
    ASSERT_TRUE(deque.push(task));
  }
  EXPECT_FALSE(deque.push(5));  // full
  const auto ticket = deque.steal_begin();
  ASSERT_EQ(contents(*ticket), std::vector<int>{1});
  EXPECT_FALSE(deque.push(5));  // task 1 is still being copied out of its slot
  deque.steal_complete(*ticket);
  EXPECT_TRUE(deque.push(5));  // now its slot is free
  EXPECT_FALSE(deque.push(6));
  EXPECT_EQ(deque.pop(), 5);
  EXPECT_EQ(deque.pop(), 4);
  EXPECT_EQ(deque.pop(), 3);
  EXPECT_EQ(deque.pop(), 2);
  EXPECT_EQ(deque.pop(), std::nullopt);
}

TEST(SplitDeque, RejectsAnEmptyBuffer) { EXPECT_THROW(SplitDeque<int>(0), std::invalid_argument); }

// A long random single-threaded interleaving of owner operations and overlapping steals:
// every task comes out exactly once, a steal takes ceil(shared / 2) tasks unless that would
// cross the buffer's end, and push fails exactly when every slot is taken.
TEST(SplitDeque, RandomInterleavingKeepsEveryTaskExactlyOnce) {
  constexpr std::int64_t kCapacity = 13;  // not a power of two: wrap-around at odd places
  SplitDeque<int> deque(kCapacity);
  std::mt19937 random(12345);
  std::deque<StealTicket<int>> in_flight;
  std::vector<int> delivered;
  int next = 0;
  std::int64_t queued = 0;  // pushed, neither popped nor stolen
  // Positions as the deque numbers them: the next steal's start, and the first slot that
  // push may not reuse (it moves up to the steal position when no steal is in flight).
  std::int64_t steal_position = 0;
  std::int64_t reusable_from = 0;
  int full_pushes = 0;
  int wrapped_steals = 0;
  for (int step = 0; step < 20'000; ++step) {
    const auto op = random() % 8;
    if (op < 3) {
      if (in_flight.empty()) {
        reusable_from = steal_position;
      }
      const std::int64_t used = queued + steal_position - reusable_from;
      const bool pushed = deque.push(next);
      EXPECT_EQ(pushed, used < kCapacity);
      full_pushes += pushed ? 0 : 1;
      if (pushed) {
        ++next;
        ++queued;
      }
    } else if (op < 6) {
      if (auto task = deque.pop()) {
        delivered.push_back(*task);
        --queued;
      } else {
        EXPECT_EQ(queued, 0);
      }
    } else if (op == 6) {
      const std::int64_t shared = deque.shared_size();
      if (auto ticket = deque.steal_begin()) {
        const auto first_slot = ticket->first % kCapacity;
        const auto count = static_cast<std::int64_t>(ticket->tasks.size());
        EXPECT_EQ(count, std::min((shared + 1) / 2, kCapacity - first_slot));
        wrapped_steals += count < (shared + 1) / 2 ? 1 : 0;
        delivered.insert(delivered.end(), ticket->tasks.begin(), ticket->tasks.end());
        EXPECT_EQ(ticket->first, steal_position);
        queued -= count;
        steal_position += count;
        in_flight.push_back(*ticket);
      } else {
        EXPECT_EQ(shared, 0);
      }
    } else if (!in_flight.empty()) {
      // Complete steals out of order: newest first.
      deque.steal_complete(in_flight.back());
      in_flight.pop_back();
    }
  }
  while (auto task = deque.pop()) {
    delivered.push_back(*task);
  }
  std::sort(delivered.begin(), delivered.end());
  std::vector<int> expected(static_cast<std::size_t>(next));
  for (int i = 0; i < next; ++i) {
    expected[static_cast<std::size_t>(i)] = i;
  }
  EXPECT_EQ(delivered, expected);
  EXPECT_GT(full_pushes, 0);     // the scenario did exercise a full buffer
  EXPECT_GT(wrapped_steals, 0);  // ... and steals cut short at the buffer's end
}

// The owner runs tasks while another thread, standing in for the MPI progress thread,
// serves steals. Every task is run or stolen exactly once.
TEST(SplitDeque, OwnerAndProgressThreadTakeEveryTaskExactlyOnce) {
  constexpr int kTasks = 100'000;
  SplitDeque<int> deque(256);
  std::atomic<bool> owner_done{false};
  std::vector<int> stolen;
  std::thread progress([&] {
    while (true) {
      const bool finished = owner_done.load(std::memory_order_acquire);
      if (auto ticket = deque.steal_begin()) {
        stolen.insert(stolen.end(), ticket->tasks.begin(), ticket->tasks.end());
        deque.steal_complete(*ticket);
      } else if (finished) {
        return;
      }
    }
  });
  std::vector<int> run;
  int next = 0;
  while (next < kTasks) {
    if (deque.push(next)) {
      ++next;
    }
    if (next % 3 == 0) {
      if (auto task = deque.pop()) {
        run.push_back(*task);
      }
    }
  }
  while (auto task = deque.pop()) {
    run.push_back(*task);
  }
  owner_done.store(true, std::memory_order_release);
  progress.join();
  std::vector<int> all = run;
  all.insert(all.end(), stolen.begin(), stolen.end());
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), static_cast<std::size_t>(kTasks));
  for (int i = 0; i < kTasks; ++i) {
    ASSERT_EQ(all[static_cast<std::size_t>(i)], i);
  }
}

}  // namespace
}  // namespace tessera::collections::steal
