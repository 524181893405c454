#pragma once
// A single-producer single-consumer ring of variable-size records in memory that two processes
// share: the channel one rank writes batches into for one other rank of the same node.
//
// Layout of a ring region (ShmRing::region_bytes(capacity) bytes, 64-byte aligned):
//   [0, 64)          the consumer's release position (tail), written by the consumer only
//   [128, 128 + C)   the records, C = capacity bytes, a multiple of 64
// The producer's write position never leaves the producer: the consumer learns of a record from
// the record's own header word, so a small record costs the consumer one cache line, the one it
// was already polling.
//
// A record starts on a 64-byte boundary with an 8-byte header, (length << 2) | kind, followed by
// `length` payload bytes; it takes the header and payload rounded up to 64 bytes. A header of 0
// means "nothing yet". Positions are monotonic byte counts; a record never straddles the end of
// the region: when it does not fit, a wrap record fills the rest and the record starts the next lap.
//
// Why the producer zeroes the header after its record before publishing it: whatever an earlier
// lap left at that position (the middle of an older payload) must not read as a header, and the
// consumer looks there only after it has acquired the record before it, so it sees the zero or a
// header published later.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <span>
#include <vector>

namespace tessera::shm {

enum class Kind : std::uint64_t { data = 1, wrap = 2, marker = 3 };

inline constexpr std::size_t kLine = 64;
inline constexpr std::size_t kDataOffset = 128;  // the tail's line and the one after stay apart
inline constexpr std::size_t kHeaderBytes = 8;

inline constexpr std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

/// An offset into a ring that may have reached its end, `capacity`, brought back to 0. Both ends
/// keep their position as an offset too, so the hot paths divide by no ring size (which need not
/// be a power of two).
inline constexpr std::size_t wrap_offset(std::size_t at, std::size_t capacity) { return at == capacity ? 0 : at; }

/// Bytes a ring of `capacity` record bytes occupies (a multiple of 64).
inline constexpr std::size_t region_bytes(std::size_t capacity) { return kDataOffset + capacity; }

/// Ring space one record of `length` payload bytes takes.
inline constexpr std::size_t record_bytes(std::size_t length) { return round_up(kHeaderBytes + length, kLine); }

/// Makes the region of a new ring empty: zeroes the release position and the first record's
/// header, the only bytes either end reads before the producer has written them (every later
/// header the consumer reads was zeroed by the producer first). The rest may hold anything, so a
/// large ring's pages are not all touched at start-up.
inline void prepare_region(std::byte* region) { std::memset(region, 0, kDataOffset + kHeaderBytes); }

inline std::atomic_ref<std::uint64_t> word(std::byte* at) {
  return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(at));
}

/// The writing end. Lives in the producer's process; `region` points into shared memory.
class Producer {
 public:
  Producer() = default;
  Producer(std::byte* region, std::size_t capacity) : region_(region), capacity_(capacity) {}

  /// Appends one record; false (and nothing written) when the ring has no room for it now.
  /// `payload` must be at most max_payload() bytes.
  bool write(Kind kind, std::span<const std::byte> payload) {
    std::byte* room = reserve(payload.size());
    if (room == nullptr) return false;
    if (!payload.empty()) std::memcpy(room, payload.data(), payload.size());
    commit(kind, payload.size());
    return true;
  }

  /// Room for the payload of one record of up to `length` bytes (at most max_payload()), to be
  /// filled in place and published by commit(); nullptr when the ring has no room for it now. The
  /// consumer sees nothing of it before commit, and a reservation not committed is simply
  /// dropped: the next reserve or write takes the same room.
  std::byte* reserve(std::size_t length) {
    const std::size_t need = record_bytes(length);
    const std::size_t offset = head_at_;
    const std::size_t rest = capacity_ - offset;
    std::size_t wrap = need > rest ? rest : 0;
    // Back to the ring's start early, once past its first kHotBytes with everything released: a
    // ring sized for large records would otherwise spread small ones over all of its lines, cold
    // in both caches, and a 16 MiB ring made an 8-byte message 10-15 % slower than a 1 MiB one.
    // (Only where the record then fits at once: a wrap taken without room after it would be
    // taken again at every retry, and the record would wait forever.)
    if (wrap == 0 && offset >= kHotBytes && capacity_ >= 4 * kHotBytes && rest + need + kLine <= capacity_ &&
        drained())
      wrap = rest;
    // kLine more than the record: the header line after it is zeroed before publishing.
    if (!room(wrap + need + kLine)) return nullptr;
    if (wrap != 0) {
      publish(offset, Kind::wrap, 0);  // its successor, the next lap's first header, is zeroed first
      head_ += wrap;
      head_at_ = 0;
    }
    return data() + head_at_ + kHeaderBytes;
  }

  /// Publishes the record reserved last, of `length` bytes (at most the length reserved).
  void commit(Kind kind, std::size_t length) {
    const std::size_t need = record_bytes(length);
    publish(head_at_, kind, length, need);
    head_ += need;
    head_at_ = wrap_offset(head_at_ + need, capacity_);
  }

  /// The largest payload a record may carry: a quarter of the ring, so a full-size record always
  /// fits once the consumer has released what it holds.
  std::size_t max_payload() const { return capacity_ / 4 - kHeaderBytes; }

  /// Rings of at least 4 x kHotBytes go back to their start when past this many bytes of it and
  /// empty (see reserve).
  static constexpr std::size_t kHotBytes = std::size_t{256} << 10;

 private:
  std::byte* data() const { return region_ + kDataOffset; }

  // Whether the consumer has released everything written. The release position is a line the
  // consumer writes, so it is read at most once per kLine x 64 bytes written.
  bool drained() {
    if (head_ == cached_tail_) return true;
    if (head_ - last_drain_check_ < kLine * 64) return false;
    last_drain_check_ = head_;
    cached_tail_ = word(region_).load(std::memory_order_acquire);
    return head_ == cached_tail_;
  }

  bool room(std::size_t bytes) {
    if (head_ + bytes - cached_tail_ <= capacity_) return true;
    cached_tail_ = word(region_).load(std::memory_order_acquire);
    return head_ + bytes - cached_tail_ <= capacity_;
  }

  // Zeroes the header `span` bytes after `at` (the next record's), then publishes this one.
  void publish(std::size_t at, Kind kind, std::size_t length, std::size_t span = 0) {
    const std::size_t next = wrap_offset(at + (span == 0 ? capacity_ - at : span), capacity_);
    word(data() + next).store(0, std::memory_order_relaxed);
    word(data() + at).store((std::uint64_t{length} << 2) | static_cast<std::uint64_t>(kind), std::memory_order_release);
  }

  std::byte* region_ = nullptr;
  std::size_t capacity_ = 0;
  std::uint64_t head_ = 0;         // where the next record goes
  std::size_t head_at_ = 0;        // head_ % capacity_
  std::uint64_t cached_tail_ = 0;  // last tail read; the consumer only ever raises it
  std::uint64_t last_drain_check_ = 0;  // head_ when drained() last read the tail
};

/// One record taken from a ring: its kind and payload (valid until released).
struct Record {
  Kind kind = Kind::data;
  std::span<const std::byte> payload;
};

/// The reading end. Records may be held while later ones are read and released in any order;
/// ring space is returned in ring order, up to the oldest record still held.
class Consumer {
 public:
  Consumer() = default;
  Consumer(std::byte* region, std::size_t capacity) : region_(region), capacity_(capacity) {}

  /// True when a record (or a wrap) is waiting. Reads one shared word.
  bool ready() const { return word(data() + read_at_).load(std::memory_order_relaxed) != 0; }

  /// Takes the next record, skipping wraps; false when none is waiting. Markers are released at
  /// once; a data record is held until release(payload.data()).
  bool next(Record& out) {
    for (;;) {
      const std::size_t at = read_at_;
      const std::uint64_t header = word(data() + at).load(std::memory_order_acquire);
      if (header == 0) return false;
      const auto kind = static_cast<Kind>(header & 3);
      const std::size_t length = header >> 2;
      const std::size_t span = kind == Kind::wrap ? capacity_ - at : record_bytes(length);
      read_ += span;
      read_at_ = wrap_offset(at + span, capacity_);
      if (kind == Kind::wrap) {
        hold({nullptr, read_, true});
        continue;
      }
      out.kind = kind;
      out.payload = {data() + at + kHeaderBytes, length};
      hold({out.payload.data(), read_, kind != Kind::data});
      advance();
      return true;
    }
  }

  /// Gives back the record whose payload starts at `payload`.
  void release(const std::byte* payload) {
    for (std::size_t i = 0; i < count_; ++i) {
      Held& h = held_[(first_ + i) & (held_.size() - 1)];
      if (h.payload == payload && !h.released) {
        h.released = true;
        break;
      }
    }
    advance();
  }

  std::size_t held() const { return count_; }

 private:
  struct Held {
    const std::byte* payload;
    std::uint64_t end;  // position just past the record
    bool released;
  };

  std::byte* data() const { return region_ + kDataOffset; }

  // Held records in ring order, in a circular array of a power-of-two size that only grows.
  void hold(const Held& h) {
    if (count_ == held_.size()) {
      std::vector<Held> grown(std::max<std::size_t>(8, 2 * held_.size()));
      for (std::size_t i = 0; i < count_; ++i) grown[i] = held_[(first_ + i) & (held_.size() - 1)];
      held_ = std::move(grown);
      first_ = 0;
    }
    held_[(first_ + count_) & (held_.size() - 1)] = h;
    ++count_;
  }

  void advance() {
    std::uint64_t tail = released_;
    while (count_ != 0 && held_[first_].released) {
      tail = held_[first_].end;
      first_ = (first_ + 1) & (held_.size() - 1);
      --count_;
    }
    if (tail != released_) {
      released_ = tail;
      word(region_).store(tail, std::memory_order_release);
    }
  }

  std::byte* region_ = nullptr;
  std::size_t capacity_ = 0;
  std::uint64_t read_ = 0;      // the next record's position
  std::size_t read_at_ = 0;     // read_ % capacity_
  std::uint64_t released_ = 0;  // everything before this is free for the producer
  std::vector<Held> held_;
  std::size_t first_ = 0;
  std::size_t count_ = 0;
};

}  // namespace tessera::shm
