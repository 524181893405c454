#pragma once
// The fixed-size lock-free work-stealing deque of Arora, Blumofe and Plaxton, as seed 002
// uses it for its work-pools.
//
// Papers: N. S. Arora, R. D. Blumofe, C. G. Plaxton, "Thread Scheduling for Multiprogrammed
// Multiprocessors" (SPAA 1998), Figure 3 (pushBottom, popBottom, popTop); D. Cederman,
// P. Tsigas, "Dynamic Load Balancing Using Work-Stealing" (GPU Computing Gems, ch. 35 = seed
// 002), section 35.3.3 and Listings 35.1-35.4, which this follows step by step.
//
// Shape: one array of `capacity` slots. `tail` (ABP's `bot`) is the next free slot and is
// written only by the owner. `head` (ABP's `age`) is one 64-bit word: the index of the oldest
// element in the low 32 bits and an ABA tag in the high 32 bits, and it changes only by CAS
// or by the owner's reset. The owner pushes and takes at the tail (LIFO: depth-first on what
// it just created); thieves steal at the head (FIFO: the oldest, usually largest, work).
// When the owner finds the deque empty or takes its last element, it moves both `head` and
// `tail` back to slot 0, so the array is reused from its start; the reset increments the
// tag, so a thief that read `head` before the reset and CASes after it fails instead of
// taking a task twice (the ABA problem of section 35.3.3.4). The tag is 32 bits: a thief
// would have to stall across exactly 2^32 resets for it to wrap onto the value it read.
//
// Atomic operations: only a steal, and a take of the last element, use a read-modify-write
// (the CAS on `head`), which is the point of the algorithm (section 35.3.2.2). Each take
// also needs one StoreLoad fence, between publishing the shrunk `tail` and reading `head`.
//
// Memory orderings, member by member (the comment at each access repeats the reason):
//  - `tail_`: the owner's stores are release (push: a thief that acquires the new `tail`
//    sees the element stored in the slot below it; take: the same for the elements below,
//    since C++20 no longer counts a thread's later plain stores as part of a release
//    sequence); the thief's load is acquire, after a seq_cst fence that pairs with the
//    owner's fence in take (each sees the other's write to its variable, or both see the
//    CAS order decide);
//  - `head_`: loaded acquire; the CASes are seq_cst, so the owner's and every thief's CAS
//    on it form one total order and exactly one of them claims each element; the owner's
//    plain reset after a lost race is a release store;
//  - the slots: relaxed atomic words (atomic_slot.hpp), ordered by the accesses above.
// ThreadSanitizer does not model fences; every shared access here is atomic, so it sees no
// data race, and what the fences add (the StoreLoad order) it neither needs nor checks.
//
// Storage: fixed at construction, as on the GPU (section 35.5 names the missing lock-free
// resize as future work). push() on a full array throws std::length_error; size the array
// from a bound on the owner's depth of work (for a depth-first search: branching factor
// times depth, plus the seeds). high_water() reports the largest `tail` reached, the
// storage the run actually needed (seed 002's "tasks allocated" per deque).
//
// When to use it rather than the Chase-Lev deque (chase_lev_deque.hpp): when that bound is
// known, to get seed 002's scheme and its storage figure; the Chase-Lev ring grows instead,
// for work with no bound (UTS, task collections fed by other ranks). In one way the ABP
// array is weaker: `head` never moves back while the deque is non-empty, so slots below it
// stay unused until the deque empties; a worker that keeps its deque non-empty while
// thieves drain its oldest tasks can reach the end of the array with few tasks in it.

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "tessera/collections/steal/atomic_slot.hpp"
#include "tessera/collections/steal/cache_line.hpp"
#include "tessera/collections/steal/steal_result.hpp"

namespace tessera::collections::steal {

template <Stealable T>
class AbpDeque {
 public:
  // `capacity`: the number of slots, in [1, 2^31]. Throws std::invalid_argument otherwise.
  explicit AbpDeque(std::int64_t capacity) : capacity_(checked(capacity)) {
    slots_ = std::make_unique<AtomicSlot<T>[]>(static_cast<std::size_t>(capacity_));
  }

  AbpDeque(const AbpDeque&) = delete;
  AbpDeque& operator=(const AbpDeque&) = delete;

  // Owner only (Listing 35.2). Adds `value` at the tail. Throws std::length_error when the
  // tail is at the end of the array (the deque is then unchanged).
  void push(const T& value) {
    // relaxed: only the owner writes tail_, so it reads its own latest value.
    const std::uint32_t t = tail_.load(std::memory_order_relaxed);
    if (t == capacity_) {
      throw std::length_error("AbpDeque: the fixed array of " + std::to_string(capacity_) +
                              " tasks is full (raise the deque capacity)");
    }
    slots_[t].store(value);
    // release: a thief that acquires this tail_ value also sees the element just stored.
    tail_.store(t + 1, std::memory_order_release);
    if (t + 1 > high_water_) high_water_ = t + 1;
  }

  // Owner only (Listing 35.4, ABP's popBottom). Removes the newest element, or returns
  // nothing when the deque is empty (including when a thief won the race for the last one).
  std::optional<T> take() {
    // Every path returns `result`, so it is built in the caller's storage (NRVO) and the
    // element is written there once, a word at a time (AtomicSlot::load_into): copying a
    // returned optional read those words back as wider loads, which the store buffer cannot
    // forward, a stall on every take.
    std::optional<T> result;
    std::uint32_t t = tail_.load(std::memory_order_relaxed);
    if (t == 0) return result;  // step 1: tail at the start of the array means empty
    --t;
    // Step 2, publish the smaller tail: release, see the file comment. The seq_cst fence
    // then orders this store before the load of head_ below (StoreLoad, which no
    // acquire/release pairing gives): either a thief sees the smaller tail and leaves the
    // element alone, or we see that thief's move of head_.
    tail_.store(t, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    slots_[t].load_into(result.emplace());
    std::uint64_t old_head = head_.load(std::memory_order_acquire);
    if (t > index(old_head)) return result;  // case 1: more than one element, no conflict
    // Cases 2 and 3: the deque is now empty either way; reset it to the start of the array.
    // relaxed: a thief reading tail_ 0 finds the deque empty without reading any slot.
    tail_.store(0, std::memory_order_relaxed);
    const std::uint64_t reset = pack(0, tag(old_head) + 1);
    if (t == index(old_head)) {
      // Case 3, the last element: the CAS on head_ decides between us and the thieves.
      // seq_cst on success, in the one total order of CASes on head_; relaxed on failure,
      // as the value read is then not used.
      if (head_.compare_exchange_strong(old_head, reset, std::memory_order_seq_cst,
                                        std::memory_order_relaxed)) {
        return result;
      }
    }
    // Case 2, or a lost case 3: a thief took the last element, and head_ is past tail_, so
    // no thief can succeed any more; a plain store resets it. release: a thief that reads
    // the new tag (or a later head_) also sees tail_ back at 0.
    head_.store(reset, std::memory_order_release);
    result.reset();
    return result;
  }

  // Any thread (Listing 35.3, ABP's popTop). Removes the oldest element, or says why not.
  StealResult<T> steal() {
    // Step 1. acquire on head_, the seq_cst fence (the thief's half of take's StoreLoad
    // handshake), then acquire on tail_, which pairs with the owner's release stores, so
    // the element below that tail is visible.
    std::uint64_t old_head = head_.load(std::memory_order_acquire);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const std::uint32_t t = tail_.load(std::memory_order_acquire);
    const std::uint32_t h = index(old_head);
    if (t <= h) return {StealStatus::empty, T{}};
    // Step 2: read before claiming; a torn or stale read is possible only if the claim fails.
    const T value = slots_[h].load();
    // Step 3: seq_cst, in the one total order of CASes on head_; relaxed on failure, nothing
    // read is kept. The tag makes a CAS across a reset fail (the ABA problem).
    if (!head_.compare_exchange_strong(old_head, pack(h + 1, tag(old_head)), std::memory_order_seq_cst,
                                       std::memory_order_relaxed)) {
      return {StealStatus::lost_race, T{}};
    }
    return {StealStatus::success, value};
  }

  // Any thread. The number of elements at some recent instant; exact only when no other
  // thread is using the deque. Thieves use it to skip victims that look empty.
  std::int64_t size_hint() const noexcept {
    const std::int64_t t = tail_.load(std::memory_order_relaxed);
    const std::int64_t h = index(head_.load(std::memory_order_relaxed));
    return t > h ? t - h : 0;
  }

  std::int64_t capacity() const noexcept { return capacity_; }

  // Owner only (or after the owner is joined). The largest tail reached since construction:
  // the slots this deque's run needed.
  std::int64_t high_water() const noexcept { return high_water_; }

 private:
  static std::uint32_t checked(std::int64_t capacity) {
    if (capacity < 1 || capacity > (std::int64_t{1} << 31)) {
      throw std::invalid_argument("AbpDeque: capacity must be in [1, 2^31], got " + std::to_string(capacity));
    }
    return static_cast<std::uint32_t>(capacity);
  }
  static constexpr std::uint32_t index(std::uint64_t head) noexcept { return static_cast<std::uint32_t>(head); }
  static constexpr std::uint32_t tag(std::uint64_t head) noexcept { return static_cast<std::uint32_t>(head >> 32); }
  static constexpr std::uint64_t pack(std::uint32_t index, std::uint32_t tag) noexcept {
    return (std::uint64_t{tag} << 32) | index;
  }

  // Cache-line placement, as in chase_lev_deque.hpp: head_ is written by every steal, tail_
  // by every push and take of the owner; apart, neither side's traffic invalidates the
  // other's line. The owner-only and read-only fields share a third line.
  alignas(kCacheLine) std::atomic<std::uint64_t> head_{0};
  alignas(kCacheLine) std::atomic<std::uint32_t> tail_{0};
  alignas(kCacheLine) std::uint32_t capacity_;
  std::uint32_t high_water_ = 0;
  std::unique_ptr<AtomicSlot<T>[]> slots_;
};

}  // namespace tessera::collections::steal
