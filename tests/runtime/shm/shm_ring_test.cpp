// The shared-memory ring: order, contents, wrap-around, a full ring, out-of-order release, and a
// producer and a consumer on two threads (run this one under ThreadSanitizer too).
#include "shm_ring.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace {

using tessera::shm::Consumer;
using tessera::shm::Kind;
using tessera::shm::Producer;
using tessera::shm::Record;

struct Region {
  explicit Region(std::size_t capacity)
      : bytes(static_cast<std::byte*>(std::aligned_alloc(64, tessera::shm::region_bytes(capacity)))) {
    std::memset(bytes.get(), 0, tessera::shm::region_bytes(capacity));
  }
  struct Free {
    void operator()(std::byte* p) const { std::free(p); }
  };
  std::unique_ptr<std::byte, Free> bytes;
};

// A ring in zeroed, line-aligned memory with both of its ends.
struct Channel {
  explicit Channel(std::size_t capacity)
      : region(capacity), out(region.bytes.get(), capacity), in(region.bytes.get(), capacity) {}
  Region region;
  Producer out;
  Consumer in;
};

// The single-threaded tests' ring: 4 KiB, 64 lines.
class ShmRing4K : public ::testing::Test {
 protected:
  static constexpr std::size_t capacity = 4096;
  Channel ring{capacity};
  Producer& out = ring.out;
  Consumer& in = ring.in;
};

std::vector<std::byte> pattern(std::uint64_t sequence, std::size_t n) {
  std::vector<std::byte> bytes(n);
  for (std::size_t j = 0; j < n; ++j) bytes[j] = static_cast<std::byte>(sequence * 7 + j);
  return bytes;
}

bool matches(const Record& record, std::uint64_t sequence, std::size_t n) {
  if (record.payload.size() != n) return false;
  for (std::size_t j = 0; j < n; ++j)
    if (record.payload[j] != static_cast<std::byte>(sequence * 7 + j)) return false;
  return true;
}

TEST_F(ShmRing4K, RecordsArriveInOrderWithTheirBytesAcrossManyLaps) {
  EXPECT_FALSE(in.ready());
  // Sizes that land records on every 64-byte offset of the ring and force wraps.
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const std::size_t n = (i * 37) % (out.max_payload() + 1);
    ASSERT_TRUE(out.write(Kind::data, pattern(i, n))) << "record " << i;
    ASSERT_TRUE(in.ready());
    Record record;
    ASSERT_TRUE(in.next(record));
    EXPECT_EQ(record.kind, Kind::data);
    ASSERT_TRUE(matches(record, i, n)) << "record " << i;
    in.release(record.payload.data());
    EXPECT_FALSE(in.next(record));
  }
  EXPECT_EQ(in.held(), 0u);
}

TEST_F(ShmRing4K, AFullRingRefusesUntilTheOldestRecordIsReleased) {
  // 56-byte payloads take one 64-byte line; one line stays free for the header after the last.
  const auto small = pattern(0, 56);
  int written = 0;
  while (out.write(Kind::data, small)) ++written;
  EXPECT_EQ(written, static_cast<int>(capacity / 64) - 1);

  std::vector<Record> held(3);
  for (Record& r : held) ASSERT_TRUE(in.next(r));
  // Releasing a later record frees nothing: space comes back in ring order.
  in.release(held[2].payload.data());
  in.release(held[1].payload.data());
  EXPECT_FALSE(out.write(Kind::data, small));
  in.release(held[0].payload.data());
  EXPECT_EQ(in.held(), 0u);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(out.write(Kind::data, small)) << i;
  EXPECT_FALSE(out.write(Kind::data, small));

  // Markers carry no payload and are never held.
  Record r;
  int data = 0;
  while (in.next(r)) {
    ++data;
    in.release(r.payload.data());
  }
  EXPECT_EQ(data, written);
  ASSERT_TRUE(out.write(Kind::marker, {}));
  ASSERT_TRUE(in.next(r));
  EXPECT_EQ(r.kind, Kind::marker);
  EXPECT_EQ(in.held(), 0u);
}

TEST_F(ShmRing4K, TheLargestRecordAlwaysFitsInAnEmptyRing) {
  const auto large = pattern(1, out.max_payload());
  for (std::uint64_t i = 0; i < 100; ++i) {
    // A small record first shifts where the large one starts, so some must wrap.
    ASSERT_TRUE(out.write(Kind::data, pattern(i, i % 200)));
    ASSERT_TRUE(out.write(Kind::data, large)) << i;
    Record r;
    ASSERT_TRUE(in.next(r));
    in.release(r.payload.data());
    ASSERT_TRUE(in.next(r));
    ASSERT_TRUE(matches(r, 1, large.size()));
    in.release(r.payload.data());
  }
}

// Records filled in place (the runtime's large element states): a reservation is invisible until
// committed, may commit fewer bytes than it reserved, and one never committed leaves no trace.
TEST_F(ShmRing4K, ReservedRecordsAppearOnlyWhenCommitted) {
  for (std::uint64_t i = 0; i < 500; ++i) {
    const std::size_t reserved = (i * 53) % (out.max_payload() + 1);
    const std::size_t used = reserved - (i % 3 == 0 ? std::min<std::size_t>(reserved, i % 64) : 0);
    std::byte* room = out.reserve(reserved);
    ASSERT_NE(room, nullptr) << "record " << i;
    const auto bytes = pattern(i, used);
    if (used != 0) std::memcpy(room, bytes.data(), used);
    Record early;  // (a wrap the reservation needed may be read already: it carries nothing)
    EXPECT_FALSE(in.next(early)) << "record " << i << " visible before its commit";
    if (i % 5 == 4) {
      // Dropped: the next record takes its place.
      ASSERT_TRUE(out.write(Kind::data, bytes));
    } else {
      out.commit(Kind::data, used);
    }
    Record record;
    ASSERT_TRUE(in.next(record));
    ASSERT_TRUE(matches(record, i, used)) << "record " << i;
    in.release(record.payload.data());
    EXPECT_FALSE(in.next(record));
  }
  EXPECT_EQ(in.held(), 0u);
}

TEST_F(ShmRing4K, AFullRingReservesNothing) {
  const auto small = pattern(0, 56);
  while (out.write(Kind::data, small)) {
  }
  EXPECT_EQ(out.reserve(1), nullptr);
  Record r;
  ASSERT_TRUE(in.next(r));
  in.release(r.payload.data());
  ASSERT_NE(out.reserve(56), nullptr);
  EXPECT_EQ(out.reserve(120), nullptr);  // two lines: one is free
}

// A large ring keeps small records that are released as they come within its first lines (its
// start is reused as soon as it is empty), and still takes records up to a quarter of it.
TEST(ShmRing, AnEmptyLargeRingReusesItsStart) {
  const std::size_t capacity = 16 * Producer::kHotBytes;
  Channel ring(capacity);
  const std::byte* start = ring.region.bytes.get() + tessera::shm::kDataOffset;
  std::size_t furthest = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const std::size_t n = i % 1000 == 999 ? ring.out.max_payload() : (i * 13) % 200;
    ASSERT_TRUE(ring.out.write(Kind::data, pattern(i, n))) << "record " << i;
    Record r;
    ASSERT_TRUE(ring.in.next(r));
    ASSERT_TRUE(matches(r, i, n)) << "record " << i;
    if (n < 200) furthest = std::max(furthest, static_cast<std::size_t>(r.payload.data() - start));
    ring.in.release(r.payload.data());
  }
  // Past kHotBytes the producer reads the consumer's position again only every 4 KiB written; a
  // quarter-ring record takes it further, and the next small record starts over.
  EXPECT_LT(furthest, Producer::kHotBytes + 2 * 4096);
  EXPECT_EQ(ring.in.held(), 0u);
}

// Just past the first kHotBytes of an empty ring, a record too large to follow a wrap back to the
// start is written where the head is instead.
TEST(ShmRing, ALargeRecordJustPastTheHotBytesIsWrittenInPlace) {
  const std::size_t capacity = 4 * Producer::kHotBytes;
  for (std::size_t offset = Producer::kHotBytes; offset < Producer::kHotBytes + 8 * 4096; offset += 4096) {
    Channel fresh(capacity);
    // Move the head to `offset` with released records, then ask for the largest record.
    const std::size_t filler = offset / 16;
    for (int k = 0; k < 16; ++k) {
      ASSERT_TRUE(fresh.out.write(Kind::data, pattern(k, filler - tessera::shm::kHeaderBytes)));
      Record r;
      ASSERT_TRUE(fresh.in.next(r));
      fresh.in.release(r.payload.data());
    }
    const auto large = pattern(99, fresh.out.max_payload());
    ASSERT_TRUE(fresh.out.write(Kind::data, large)) << "head at " << offset;
    Record r;
    ASSERT_TRUE(fresh.in.next(r));
    ASSERT_TRUE(matches(r, 99, large.size()));
  }
}

// A ring needs only prepare_region: whatever the rest of its memory held, records arrive whole
// and in order over many laps, with early wraps and wraps at the end.
TEST(ShmRing, PreparedRegionOverOldBytesWorks) {
  // 64 KiB: laps that end in wraps; 1 MiB: early wraps back to the start.
  for (const std::size_t capacity : {std::size_t{64} << 10, 4 * Producer::kHotBytes}) {
    Region region(capacity);
    std::memset(region.bytes.get(), 0xA5, tessera::shm::region_bytes(capacity));
    tessera::shm::prepare_region(region.bytes.get());
    Producer out(region.bytes.get(), capacity);
    Consumer in(region.bytes.get(), capacity);
    for (std::uint64_t i = 0; i < 20000; ++i) {
      const std::size_t n = i % 97 == 0 ? (i * 7919) % (out.max_payload() + 1) : (i * 37) % 3000;
      ASSERT_TRUE(out.write(Kind::data, pattern(i, n))) << capacity << " record " << i;
      Record r;
      ASSERT_TRUE(in.next(r)) << capacity << " record " << i;
      ASSERT_TRUE(matches(r, i, n)) << capacity << " record " << i;
      in.release(r.payload.data());
      ASSERT_FALSE(in.next(r)) << capacity << " after record " << i;
    }
  }
}

TEST(ShmRing, TwoThreadsPassAMillionRecordsInOrder) {
  constexpr std::size_t capacity = 16384;
  constexpr std::uint64_t records = 1'000'000;
  Channel ring(capacity);
  Producer& out = ring.out;
  Consumer& in = ring.in;
  const auto size_of = [&](std::uint64_t i) { return static_cast<std::size_t>((i * 2654435761u) % 300); };

  std::thread producer([&] {
    for (std::uint64_t i = 0; i < records; ++i) {
      const auto bytes = pattern(i, size_of(i));
      while (!out.write(Kind::data, bytes)) std::this_thread::yield();
    }
  });
  // The consumer holds up to 8 records and releases them in a shuffled order.
  std::mt19937 random(7);
  std::vector<const std::byte*> holding;
  std::uint64_t bad = 0;
  for (std::uint64_t i = 0; i < records;) {
    Record r;
    if (!in.next(r)) {
      std::this_thread::yield();
      continue;
    }
    if (!matches(r, i, size_of(i))) ++bad;
    holding.push_back(r.payload.data());
    ++i;
    if (holding.size() == 8 || i == records) {
      std::shuffle(holding.begin(), holding.end(), random);
      for (const std::byte* p : holding) in.release(p);
      holding.clear();
    }
  }
  producer.join();
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(in.held(), 0u);
}

}  // namespace
