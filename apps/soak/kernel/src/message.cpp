// Payload bytes and checksums: word at a time, since a soak moves gigabytes through them.
#include "tessera/soak/message.hpp"

#include <bit>
#include <cstring>

namespace tessera::soak {

std::vector<std::uint8_t> make_payload(std::uint64_t sender, std::uint64_t sequence, std::uint32_t size) {
  std::vector<std::uint8_t> bytes(size);
  std::uint64_t state = draw(sender, sequence, 0x9a71);
  std::size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;  // Knuth's MMIX LCG: cheap, every word differs
    const std::uint64_t word = state ^ (state >> 29);
    std::memcpy(bytes.data() + at, &word, 8);
  }
  for (; at < bytes.size(); ++at) bytes[at] = static_cast<std::uint8_t>(mix(state + at));
  return bytes;
}

std::uint64_t checksum(const Header& h, const std::vector<std::uint8_t>& payload) {
  std::uint64_t acc = draw(h.sender, h.receiver, h.sequence, (std::uint64_t{h.ttl} << 32) | h.size);
  acc ^= draw(h.phase, payload.size());
  std::size_t at = 0;
  for (; at + 8 <= payload.size(); at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, payload.data() + at, 8);
    acc = std::rotl(acc ^ word, 27) * 0x9e3779b97f4a7c15ull;
  }
  for (; at < payload.size(); ++at) acc = std::rotl(acc ^ payload[at], 8) * 0xff51afd7ed558ccdull;
  return mix(acc);
}

std::uint32_t draw_size(std::uint64_t r) {
  if ((r & 31) != 0) return static_cast<std::uint32_t>((r >> 8) % 257);
  // Log-uniform: an exponent in [0, 18], then a size in [2^e / 2, 2^e].
  const unsigned e = static_cast<unsigned>((r >> 8) % 19);
  const std::uint64_t hi = std::uint64_t{1} << e;
  const std::uint64_t size = hi / 2 + (r >> 16) % (hi - hi / 2 + 1);
  return static_cast<std::uint32_t>(size > kMaxPayload ? kMaxPayload : size);
}

}  // namespace tessera::soak
