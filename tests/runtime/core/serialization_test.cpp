// Round trips of serialized arguments: containers, strings, maps, a user type, 100 MiB.
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../../support/test_runtime.hpp"

namespace {

struct Particle {
  std::string name;
  std::vector<double> position;
  std::map<std::string, int> tags;
  template <class Archive>
  void serialize(Archive& archive) {
    archive(name, position, tags);
  }
  bool operator==(const Particle&) const = default;
};

Particle make_particle(int rank) {
  // Appended rather than "p" + std::to_string(rank): GCC 12 inlines that operator+ into a memcpy it
  // then warns about (-Wrestrict, GCC bug 105651).
  std::string name = "p";
  name += std::to_string(rank);
  return Particle{std::move(name), {1.5 * rank, -2.0, 3.25}, {{"rank", rank}, {"answer", 42}}};
}

int received_round_trips = 0;
void check_round_trip(std::vector<int> ints, std::string text, std::map<int, std::string> table,
                      Particle particle, int from) {
  EXPECT_EQ(ints.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(ints[i], i * from);
  EXPECT_EQ(text, "hello from rank " + std::to_string(from));
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.at(from), "me");
  EXPECT_EQ(particle, make_particle(from));
  ++received_round_trips;
}

// A trivially copyable struct whose serialize lists one field of two: in a vector it travels as
// one block of bytes (archive.hpp), so both fields arrive and serialize is never called.
struct Cell {
  double value = 0;
  std::int64_t marker = 0;
  template <class Archive>
  void serialize(Archive& archive) {
    archive(value);
  }
};

struct Holder {
  std::vector<Cell> cells;
  std::vector<double> plain;
  template <class Archive>
  void serialize(Archive& archive) {
    archive(cells, plain);
  }
};

TEST(Serialization, VectorsOfTriviallyCopyableElementsTravelAsOneBlock) {
  Holder in;
  for (int i = 0; i < 1000; ++i) in.cells.push_back({0.5 * i, 7 * i});
  in.plain = {1.0, 2.0};
  tessera::Buffer bytes(64);
  tessera::serial::encode(bytes, in);
  // length prefix, size tag and 16 bytes per cell, size tag and the two doubles
  EXPECT_EQ(bytes.size(), 8u + 8u + 1000u * sizeof(Cell) + 8u + 16u);
  tessera::serial::Reader reader(bytes.view());
  const Holder out = tessera::serial::decode<Holder>(reader);
  ASSERT_EQ(out.cells.size(), 1000u);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(out.cells[i].value, 0.5 * i);
    EXPECT_EQ(out.cells[i].marker, 7 * i);
  }
  EXPECT_EQ(out.plain, in.plain);
}

TEST(Serialization, ContainersStringsMapsAndUserTypes) {
  auto& rt = tessera::testing::runtime();
  received_round_trips = 0;
  rt.collectives().barrier();  // nobody sends into this test before every rank has reset
  std::vector<int> ints(1000);
  for (int i = 0; i < 1000; ++i) ints[i] = i * rt.rank();
  std::map<int, std::string> table{{-1, "a"}, {-2, "b"}, {rt.rank(), "me"}};
  const int dest = (rt.rank() + 1) % rt.size();
  rt.send<&check_round_trip>(dest, ints, "hello from rank " + std::to_string(rt.rank()), table,
                             make_particle(rt.rank()), rt.rank());
  rt.run_until([] { return received_round_trips == 1; });
  rt.collectives().barrier();
}

std::uint64_t big_checksum = 0;
std::size_t big_size = 0;
void receive_big(std::span<const std::byte> bytes) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < bytes.size(); i += 4096) sum += static_cast<std::uint64_t>(bytes[i]);
  big_checksum = sum;
  big_size = bytes.size();
}

TEST(Serialization, HundredMebibytePayload) {
  auto& rt = tessera::testing::runtime();
  big_size = 0;
  rt.collectives().barrier();
  constexpr std::size_t bytes = 100u << 20;
  std::vector<std::byte> payload(bytes);
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < bytes; i += 4096) {
    payload[i] = static_cast<std::byte>((i / 4096 + rt.rank()) % 251);
  }
  const int source = (rt.rank() + rt.size() - 1) % rt.size();
  for (std::size_t i = 0; i < bytes; i += 4096) expected += (i / 4096 + source) % 251;
  rt.send<&receive_big>((rt.rank() + 1) % rt.size(), std::span<const std::byte>(payload));
  rt.run_until([] { return big_size != 0; });
  EXPECT_EQ(big_size, bytes);
  EXPECT_EQ(big_checksum, expected);
  rt.collectives().barrier();
}

std::vector<std::uint32_t> chunked;
void receive_chunked(std::vector<std::uint32_t> values) { chunked = std::move(values); }

TEST(Serialization, CountsBeyondTheIntLimitUseADerivedDatatype) {
  // A second runtime in the same process whose "int limit" is 1000 bytes, so a 400 KB message
  // takes the path a > 2 GiB message takes, without allocating gigabytes.
  auto& outer = tessera::testing::runtime();
  int argc = 1;
  char name[] = "test";
  char* args[] = {name, nullptr};
  char** argv = args;
  tessera::RuntimeOptions options;
  options.app_comm = outer.comm();
  options.transport.max_int_count = 1000;
  {
    tessera::Runtime small(argc, argv, options);
    chunked.clear();
    small.collectives().barrier();
    std::vector<std::uint32_t> values(100000);
    for (std::uint32_t i = 0; i < values.size(); ++i) values[i] = i * 7 + small.rank();
    small.send<&receive_chunked>((small.rank() + 1) % small.size(), values);
    small.run_until([] { return !chunked.empty(); });
    const std::uint32_t source = (small.rank() + small.size() - 1) % small.size();
    ASSERT_EQ(chunked.size(), 100000u);
    for (std::uint32_t i = 0; i < chunked.size(); ++i) ASSERT_EQ(chunked[i], i * 7 + source);
  }
}

}  // namespace
