#pragma once
// The split deque of a rank: its task queue for distributed work stealing.
//
// Algorithm: J. Lifflander, S. Krishnamoorthy, L. V. Kale, "Work Stealing and
// Persistence-based Load Balancers for Iterative Overdecomposed Applications" (HPDC 2012),
// section 6, Figures 2-4. A bounded circular buffer is split in two parts:
//
//     ctail      stail            split             head        (positions grow rightwards)
//       | stolen,  |    shared      |     local      |  free ...
//       | copying  |  (stealable)   |  (owner only)  |
//
//  - The owner pushes and pops at `head` (newest first) without locks or fences: thieves
//    never look past `split`.
//  - When the shared part runs empty, the owner releases the older half of its local part
//    to it (`split` moves right, published with a release store; the paper's memfence).
//  - When the local part runs empty, the owner acquires half of the shared part back
//    (at least one task), under the lock, since a thief may be taking the same tasks.
//  - A thief takes the older half of the shared part, rounded up, in two phases: under the
//    lock it only marks the tasks (`stail` moves right); it then copies them without the
//    lock (into a reply message), and finally reports completion by adding their count to
//    `itail`. Several steals may be in flight and complete in any order; `itail == stail`
//    means none is, and only then does the owner reclaim their slots (`ctail = stail`).
//
// Differences from the paper's listing: positions are 64-bit counters that never wrap
// (a slot is position % capacity), which removes the modular arithmetic and its full/empty
// ambiguity; acquireFromShared takes max(half, 1) tasks (the listing's min(half, 1) would
// take none from a shared part of one task); and push() reports a full buffer instead of
// spinning, because the thread that would complete the pending steals may be the one
// spinning (see below).
//
// Threads: push/pop/sizes belong to the owning worker. steal_begin/steal_complete may be
// called from any thread. In Tessera the owner is the rank's main thread, which also owns MPI
// progress and answers other ranks' thieves in the handler of their steal request (the
// paper's active message); with `--tessera_workers=N` > 1 the rank's worker threads steal
// from the shared part too, and only then is the lock ever contended.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>

#include "tessera/collections/steal/cache_line.hpp"
#include "tessera/collections/steal/chase_lev_deque.hpp"

namespace tessera::collections::steal {

// Tasks marked for a thief by steal_begin(). `tasks` stays valid and unchanged until
// steal_complete() is called with this ticket.
template <class T>
struct StealTicket {
  std::int64_t first = 0;     // position of the first stolen task
  std::span<const T> tasks;   // the stolen tasks, oldest first, contiguous in the buffer
};

// The lock for a deque whose owner and thieves are one thread: a task collection with one
// worker per rank, whose steal handlers run between the owner's own tasks. Locking nothing
// there saves an atomic read-modify-write pair every time the local part runs dry.
struct NoLock {
  void lock() noexcept {}
  void unlock() noexcept {}
};

// The lock for a deque whose owner learns only at run time whether thieves run on other
// threads (a task collection's rank deque: other threads exist only with several workers per
// rank). Off, it costs a predictable branch; on, it is a std::mutex.
class SwitchableMutex {
 public:
  explicit SwitchableMutex(bool enabled = true) noexcept : enabled_(enabled) {}
  void lock() {
    if (enabled_) mutex_.lock();
  }
  void unlock() {
    if (enabled_) mutex_.unlock();
  }

 private:
  bool enabled_;
  std::mutex mutex_;
};

// `Lock`: std::mutex when thieves run on other threads than the owner, NoLock when on its own,
// SwitchableMutex when that is decided at run time.
template <Stealable T, class Lock = std::mutex>
class SplitDeque {
 public:
  // `capacity`: tasks the buffer holds, stolen-but-uncopied ones included; >= 1.
  // `lock_args` construct the lock (SwitchableMutex: whether it is enabled).
  // Throws std::invalid_argument for a capacity below 1.
  template <class... LockArgs>
  explicit SplitDeque(std::int64_t capacity, LockArgs&&... lock_args)
      : capacity_(capacity),
        mask_(std::has_single_bit(static_cast<std::uint64_t>(capacity)) ? capacity - 1 : -1),
        mutex_(std::forward<LockArgs>(lock_args)...) {
    if (capacity < 1) {
      throw std::invalid_argument("SplitDeque: capacity must be at least 1");
    }
    buffer_ = std::make_unique<T[]>(static_cast<std::size_t>(capacity));
  }

  SplitDeque(const SplitDeque&) = delete;
  SplitDeque& operator=(const SplitDeque&) = delete;

  std::int64_t capacity() const noexcept { return capacity_; }

  // Owner. Adds `task` at the head (the paper's addTask). Returns false, leaving the deque
  // unchanged, when every slot holds a queued task or one still being copied to a thief.
  bool push(const T& task) {
    return push_with([&task](T& slot) { slot = task; });
  }

  // Owner. As push(), but `fill(T& slot)` writes the task straight into its slot. A caller that
  // wraps its task in T (a task collection adds a flag) saves building and copying a temporary,
  // whose copy, for a T with padding, reloads bytes that were just stored in pieces: a stall
  // on store forwarding that costs more than the rest of the push.
  template <class Fill>
  bool push_with(Fill&& fill) {
    reclaim_stolen_slots();
    if (head_ - ctail_ == capacity_) {
      return false;
    }
    fill(buffer_[slot(head_)]);
    ++head_;
    if (shared_empty()) {
      release_to_shared(local_size() / 2);
    }
    return true;
  }

  // Owner. Removes the newest task (the paper's getTask), taking work back from the shared
  // part if the local part is empty. Returns nothing when both are empty.
  std::optional<T> pop() {
    if (local_size() == 0 && !acquire_from_shared()) {
      return std::nullopt;
    }
    --head_;
    const T task = buffer_[slot(head_)];
    if (shared_empty()) {
      release_to_shared(local_size() / 2);
    }
    return task;
  }

  // Owner: exact. Tasks only the owner can take.
  std::int64_t local_size() const noexcept { return head_ - split_.load(std::memory_order_relaxed); }

  // Any thread: a snapshot. Tasks a thief could take now.
  std::int64_t shared_size() const noexcept {
    return split_.load(std::memory_order_acquire) - stail_.load(std::memory_order_acquire);
  }

  // Thief side. Marks the older half (rounded up) of the shared part as stolen, stopping at
  // the buffer's end so the tasks are contiguous. Returns nothing if the shared part is
  // empty. Pass the ticket to steal_complete() once the tasks have been copied.
  std::optional<StealTicket<T>> steal_begin() {
    const std::lock_guard lock(mutex_);
    const std::int64_t tail = stail_.load(std::memory_order_relaxed);
    // acquire: pairs with the release in release_to_shared(), so the tasks are visible.
    const std::int64_t shared = split_.load(std::memory_order_acquire) - tail;
    if (shared == 0) {
      return std::nullopt;
    }
    const std::int64_t count = std::min((shared + 1) / 2, capacity_ - slot(tail));
    // release: an owner that acquires this stail_ (shared_size()) sees what this thief did
    // before stealing; a task collection's worker announces itself busy there, so a rank that
    // sees its deque empty also sees the worker that emptied it.
    stail_.store(tail + count, std::memory_order_release);
    return StealTicket<T>{tail, std::span<const T>(&buffer_[slot(tail)], static_cast<std::size_t>(count))};
  }

  // Thief side. Declares the ticket's tasks copied; their slots may be reused.
  void steal_complete(const StealTicket<T>& ticket) noexcept {
    // release: the thief's reads of the slots happen before the owner reuses them.
    itail_.fetch_add(static_cast<std::int64_t>(ticket.tasks.size()), std::memory_order_release);
  }

 private:
  // A power-of-two capacity masks instead of dividing: a division costs more than the rest
  // of a push or pop, which run once per task.
  std::int64_t slot(std::int64_t position) const noexcept {
    return mask_ >= 0 ? position & mask_ : position % capacity_;
  }

  bool shared_empty() const noexcept {
    return split_.load(std::memory_order_relaxed) == stail_.load(std::memory_order_acquire);
  }

  // Equation (1) of the paper: itail == stail means no steal is in flight, so every slot
  // below stail is free again. itail is read first: itail only trails stail, so equal
  // values read in this order were equal at the moment stail was read.
  void reclaim_stolen_slots() noexcept {
    const std::int64_t completed = itail_.load(std::memory_order_acquire);
    const std::int64_t marked = stail_.load(std::memory_order_acquire);
    if (completed == marked) {
      ctail_ = marked;
    }
  }

  void release_to_shared(std::int64_t count) noexcept {
    // release: the tasks written at these positions are visible to a thief that reads split.
    split_.store(split_.load(std::memory_order_relaxed) + count, std::memory_order_release);
  }

  bool acquire_from_shared() {
    const std::lock_guard lock(mutex_);
    const std::int64_t split = split_.load(std::memory_order_relaxed);
    const std::int64_t shared = split - stail_.load(std::memory_order_relaxed);
    if (shared == 0) {
      return false;
    }
    split_.store(split - std::max<std::int64_t>(shared / 2, 1), std::memory_order_relaxed);
    return true;
  }

  std::int64_t capacity_;
  std::int64_t mask_;  // capacity_ - 1 for a power of two, else -1
  std::unique_ptr<T[]> buffer_;
  // Owner-only positions first; the positions thieves write (stail_, itail_) on their own
  // line so that marking a steal does not invalidate the line the owner pushes through.
  std::int64_t head_ = 0;
  std::int64_t ctail_ = 0;
  std::atomic<std::int64_t> split_{0};  // written by the owner, read by thieves
  alignas(kCacheLine) std::atomic<std::int64_t> stail_{0};
  std::atomic<std::int64_t> itail_{0};
  Lock mutex_;
};

}  // namespace tessera::collections::steal
