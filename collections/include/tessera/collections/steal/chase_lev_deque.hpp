#pragma once
// A growable lock-free work-stealing deque: one owner thread pushes and takes at the
// bottom (LIFO, so it works depth-first on what it just created); any number of thieves
// steal at the top (FIFO, so they take the oldest, usually largest, pieces of work).
//
// Algorithm: D. Chase, Y. Lev, "Dynamic Circular Work-Stealing Deque" (SPAA 2005), in the
// C11 memory-model formulation of N. M. Le, A. Pop, A. Cohen, F. Zappa Nardelli, "Correct
// and Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013), Figure 1, which that
// paper proves correct. Each atomic access below carries the ordering of that figure; the
// comment next to it says what the ordering buys. One deliberate change: push() publishes
// `bottom` with a release store instead of a release fence followed by a relaxed store.
// For the thief's acquire load of `bottom` the two give the same guarantee, and the store
// form is one that ThreadSanitizer understands (it does not model fences).
//
// Elements: any trivially copyable, default-constructible T, kept in atomic words
// (atomic_slot.hpp says why: a thief reads its element before it has won the race for it).
//
// Memory: the ring doubles when full and never shrinks. A thief may still be reading the
// old ring after the owner switched to the new one, so old rings are kept until the deque
// is destroyed (at most log2(peak size) of them, together less than the final ring).
//
// When to use it rather than the ABP deque (abp_deque.hpp): when the number of tasks a
// worker may hold has no known bound (UTS, task collections fed by other ranks). The ABP
// deque is the fixed array of seed 002, for work whose deque depth is bounded in advance.

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "tessera/collections/steal/atomic_slot.hpp"
#include "tessera/collections/steal/cache_line.hpp"
#include "tessera/collections/steal/steal_result.hpp"

namespace tessera::collections::steal {

template <Stealable T>
class ChaseLevDeque {
 public:
  // `initial_capacity`: elements held before the first growth; a power of two >= 2.
  // Throws std::invalid_argument otherwise.
  explicit ChaseLevDeque(std::int64_t initial_capacity = 256) {
    if (initial_capacity < 2 || !std::has_single_bit(static_cast<std::uint64_t>(initial_capacity))) {
      throw std::invalid_argument("ChaseLevDeque: initial_capacity must be a power of two >= 2");
    }
    auto ring = std::make_unique<Ring>(initial_capacity);
    ring_.store(ring.get(), std::memory_order_relaxed);
    rings_.push_back(std::move(ring));
  }

  ChaseLevDeque(const ChaseLevDeque&) = delete;
  ChaseLevDeque& operator=(const ChaseLevDeque&) = delete;

  // Owner only. Adds `value` at the bottom, doubling the ring if it is full (may throw
  // std::bad_alloc; the deque is then unchanged).
  void push(const T& value) {
    // relaxed: only the owner writes bottom_ and ring_, so it reads its own latest values.
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    // acquire: pairs with a thief's successful CAS on top_, so that thief's read of the
    // slot it vacated happens before we overwrite that slot below.
    const std::int64_t t = top_.load(std::memory_order_acquire);
    Ring* ring = ring_.load(std::memory_order_relaxed);
    if (b - t > ring->capacity() - 1) {
      ring = grow(ring, t, b);
    }
    ring->store(b, value);
    // release: a thief that acquires this bottom_ value also sees the element just stored.
    bottom_.store(b + 1, std::memory_order_release);
  }

  // Owner only. Removes the most recently pushed element, or returns nothing if the deque
  // is empty (including when a thief won the race for the last element).
  std::optional<T> take() {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    Ring* ring = ring_.load(std::memory_order_relaxed);
    // relaxed store, then a seq_cst fence before reading top_: the fence orders this store
    // before that load (store-load order, which no acquire/release pairing provides), so
    // either we see a thief's increment of top_ or that thief sees our reservation.
    bottom_.store(b, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    std::int64_t t = top_.load(std::memory_order_relaxed);
    if (t > b) {
      // Empty: undo the reservation. relaxed: no element is published by this store.
      bottom_.store(b + 1, std::memory_order_relaxed);
      return std::nullopt;
    }
    T value = ring->load(b);
    if (t == b) {
      // The last element: thieves may be after it too, and top_ decides. seq_cst on
      // success to be totally ordered with the thieves' CAS; relaxed on failure, as the
      // value read is then not used.
      const bool won = top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                                    std::memory_order_relaxed);
      bottom_.store(b + 1, std::memory_order_relaxed);
      if (!won) {
        return std::nullopt;
      }
    }
    return value;
  }

  // Any thread. Removes the oldest element, or says why it could not.
  StealResult<T> steal() {
    // acquire on top_, a seq_cst fence, then acquire on bottom_: the fence is the thief's
    // half of the store-load handshake in take(); the acquire on bottom_ pairs with the
    // release in push(), making the element at index t visible.
    std::int64_t t = top_.load(std::memory_order_acquire);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_acquire);
    if (t >= b) {
      return {StealStatus::empty, T{}};
    }
    // acquire (the paper's consume): pairs with the release in grow(), so a new ring's
    // contents are visible before its elements are read.
    const Ring* ring = ring_.load(std::memory_order_acquire);
    const T value = ring->load(t);
    // seq_cst: the one total order of CASes on top_ is what lets exactly one of the owner
    // and the thieves claim each element. relaxed on failure: nothing read is kept.
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) {
      return {StealStatus::lost_race, T{}};
    }
    return {StealStatus::success, value};
  }

  // Any thread. The number of elements at some recent instant; exact only when no other
  // thread is using the deque. Thieves use it to skip victims that look empty.
  std::int64_t size_hint() const noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_relaxed);
    return b > t ? b - t : 0;
  }

  // Owner only. Elements the current ring holds before it must grow.
  std::int64_t capacity() const noexcept { return ring_.load(std::memory_order_relaxed)->capacity(); }

 private:
  // A circular array indexed by the deque's ever-growing positions modulo its capacity.
  class Ring {
   public:
    explicit Ring(std::int64_t capacity)
        : mask_(capacity - 1), slots_(std::make_unique<AtomicSlot<T>[]>(static_cast<std::size_t>(capacity))) {}
    std::int64_t capacity() const noexcept { return mask_ + 1; }
    void store(std::int64_t index, const T& value) noexcept { slots_[index & mask_].store(value); }
    T load(std::int64_t index) const noexcept { return slots_[index & mask_].load(); }

   private:
    std::int64_t mask_;
    std::unique_ptr<AtomicSlot<T>[]> slots_;
  };

  Ring* grow(Ring* old, std::int64_t top, std::int64_t bottom) {
    rings_.reserve(rings_.size() + 1);  // so that no allocation can fail after the switch
    auto bigger = std::make_unique<Ring>(2 * old->capacity());
    for (std::int64_t i = top; i < bottom; ++i) {
      bigger->store(i, old->load(i));
    }
    Ring* raw = bigger.get();
    rings_.push_back(std::move(bigger));
    // release: a thief that acquires this pointer sees the copies made above.
    ring_.store(raw, std::memory_order_release);
    return raw;
  }

  // Cache-line placement: top_ is written by every successful steal, bottom_ by every
  // push and take of the owner. On one line, each owner operation would invalidate the
  // thieves' copy and each steal the owner's (false sharing on the hottest path), so each
  // gets its own line. ring_ is read by everyone but written only when growing, so it gets
  // a third line that the traffic on the other two never invalidates. rings_ is owner-only
  // and cold; it shares ring_'s line.
  alignas(kCacheLine) std::atomic<std::int64_t> top_{0};
  alignas(kCacheLine) std::atomic<std::int64_t> bottom_{0};
  alignas(kCacheLine) std::atomic<Ring*> ring_{nullptr};
  std::vector<std::unique_ptr<Ring>> rings_;  // the current ring and every retired one
};

}  // namespace tessera::collections::steal
