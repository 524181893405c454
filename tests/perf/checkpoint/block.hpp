#pragma once
// The element tessera-bench-checkpoint checkpoints: a vector of 64-bit values (cereal writes a
// vector of arithmetic values as one block, archive.hpp), each a cheap function of the element's
// index and the value's position, so a restart can be checked exactly without the original.
#include <tessera/collections.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace tessera::bench::checkpoint {

/// The value at position `i` of element `element`: distinct per element (a 64-bit mix of its
/// index) and per position, and cheap enough that filling 1 GiB does not dominate the run.
inline std::uint64_t block_value(std::uint64_t element, std::uint64_t i) {
  std::uint64_t x = element + 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return (x ^ (x >> 31)) ^ (i * 0x9e3779b97f4a7c15ull);
}

struct Block : collections::Element<Block, 1> {
  static constexpr std::string_view checkpoint_tag = "tessera.bench.checkpoint.Block";
  std::vector<std::uint64_t> values;

  Block() = default;  // a restart decodes into a default-constructed element
  Block(const collections::Index1D& idx, std::uint64_t count) : values(count) {
    const auto e = static_cast<std::uint64_t>(idx[0]);
    for (std::uint64_t i = 0; i < count; ++i) values[i] = block_value(e, i);
  }
  template <class Archive>
  void serialize(Archive& archive) {
    archive(values);
  }
};

/// What one rank's elements hold, summed so ranks can add theirs up.
struct Tally {
  std::uint64_t elements = 0;
  std::uint64_t values = 0;
  std::uint64_t checksum = 0;    ///< sum over elements of a position-weighted sum of the values
  std::uint64_t mismatches = 0;  ///< values that differ from block_value (restored side only)
};

/// Checksums (and, with `exact`, compares with block_value) every local element of `blocks`.
inline Tally tally(const collections::CollectionProxy<Block>& blocks, std::uint64_t count, bool exact) {
  Tally t;
  blocks.manager().for_each_local([&](const Block& b) {
    const auto e = static_cast<std::uint64_t>(b.index()[0]);
    ++t.elements;
    t.values += b.values.size();
    if (b.values.size() != count) t.mismatches += count;  // a truncated or padded state
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < b.values.size(); ++i) {
      sum += b.values[i] * (2 * i + 1);  // weighted: swapped values change it
      if (exact && b.values[i] != block_value(e, i)) ++t.mismatches;
    }
    t.checksum += sum ^ (e * 0x2545f4914f6cdd1dull);
  });
  return t;
}

}  // namespace tessera::bench::checkpoint
