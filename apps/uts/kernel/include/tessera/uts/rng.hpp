#pragma once
// The splittable SHA-1 random number generator of UTS 2.1 (the reference's "BRG_SHA1" RNG).
//
// Every tree node carries a 20-byte state. The state of a child is a hash of its parent's
// state and the child's index, so any subtree can be generated anywhere (on any thread,
// any rank) from its root's state alone, and the tree does not depend on who expands it:
//
//   root state    = SHA-1( 16 zero bytes || seed as 4 big-endian bytes )
//   child i state = SHA-1( parent state (20 bytes) || i as 4 big-endian bytes )
//   value(state)  = the last 4 state bytes read big-endian, masked to 31 bits
//   probability   = value / 2^31, in [0, 1)

#include <array>
#include <cstdint>

#include "tessera/uts/sha1.hpp"

namespace tessera::uts {

using RngState = Sha1Digest;

// The 31-bit random value of a state.
constexpr std::int32_t rng_value(const RngState& state) noexcept {
  const std::uint32_t word = (std::uint32_t{state[16]} << 24) | (std::uint32_t{state[17]} << 16) |
                             (std::uint32_t{state[18]} << 8) | std::uint32_t{state[19]};
  return static_cast<std::int32_t>(word & 0x7fffffffU);
}

// A 31-bit value as a probability in [0, 1).
constexpr double rng_probability(std::int32_t value) noexcept { return value / 2147483648.0; }

// Derives root and child states. Owns a hasher, so use one per thread.
class SplittableRng {
 public:
  explicit SplittableRng(Sha1Backend backend = default_sha1_backend()) : hasher_(backend) {}

  RngState root(std::int32_t seed);
  RngState spawn(const RngState& parent, std::int32_t index);

  Sha1Backend backend() const noexcept { return hasher_.backend(); }

 private:
  Sha1Hasher hasher_;
};

}  // namespace tessera::uts
