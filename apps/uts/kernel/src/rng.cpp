#include "tessera/uts/rng.hpp"

#include <algorithm>

namespace tessera::uts {
namespace {

void put_big_endian(std::uint8_t* out, std::int32_t value) {
  const auto bits = static_cast<std::uint32_t>(value);
  out[0] = static_cast<std::uint8_t>(bits >> 24);
  out[1] = static_cast<std::uint8_t>(bits >> 16);
  out[2] = static_cast<std::uint8_t>(bits >> 8);
  out[3] = static_cast<std::uint8_t>(bits);
}

}  // namespace

RngState SplittableRng::root(std::int32_t seed) {
  std::array<std::uint8_t, 20> message{};
  put_big_endian(message.data() + 16, seed);
  return hasher_.digest(message);
}

RngState SplittableRng::spawn(const RngState& parent, std::int32_t index) {
  std::array<std::uint8_t, 24> message;
  std::copy(parent.begin(), parent.end(), message.begin());
  put_big_endian(message.data() + 20, index);
  return hasher_.digest(message);
}

}  // namespace tessera::uts
