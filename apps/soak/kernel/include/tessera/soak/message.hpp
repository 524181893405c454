#pragma once
/// What one soak message is, and how its bytes are made and checked.
///
/// Every message carries a Header: who sent it (an element, or an SPMD source of the rank-side
/// code), which element it is for, a sequence number unique for its sender, and a checksum of the
/// header's other fields and the payload's bytes. The payload's bytes are a function of (sender,
/// sequence), so a receiver needs nothing but the message to tell whether it arrived intact.
///
/// Everything a message causes (its size, its target, the messages its handler sends on, whether
/// the receiver moves away) is drawn from a hash of the message's identity, never from the order
/// in which messages arrive: the totals and the element states at the end of a phase are then the
/// same on any rank count, under any balancer, after any restart.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::soak {

/// splitmix64's finalizer: a seeded, order-free hash (also what the collections tests use).
constexpr std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
/// A hash of several values, in order.
constexpr std::uint64_t draw(std::uint64_t a, std::uint64_t b, std::uint64_t c = 0, std::uint64_t d = 0) {
  return mix(mix(mix(mix(a) ^ b) ^ c) ^ d);
}

/// The identity and integrity of one message. Trivially copyable: it travels as its bytes.
struct Header {
  std::uint64_t sender = 0;    ///< element id (Ids), or an SPMD source's id
  std::uint64_t receiver = 0;  ///< the element id the message is for
  std::uint64_t sequence = 0;  ///< unique per sender over the run (see Ids::root_sequence)
  std::uint64_t checksum = 0;  ///< of sender, receiver, sequence, ttl and the payload
  std::uint64_t phase = 0;     ///< the phase it was sent in
  std::uint32_t ttl = 0;       ///< how many more times the chain is passed on from a handler
  std::uint32_t size = 0;      ///< payload bytes, 0 to 256 KiB
};

/// Largest payload, bytes.
inline constexpr std::uint32_t kMaxPayload = 256 * 1024;

/// The payload of a message from `sender` with `sequence`: `size` bytes, a function of both.
std::vector<std::uint8_t> make_payload(std::uint64_t sender, std::uint64_t sequence, std::uint32_t size);
/// The checksum of `h`'s identity fields and `payload` (h.checksum itself is not read).
std::uint64_t checksum(const Header& h, const std::vector<std::uint8_t>& payload);
/// A size in [0, kMaxPayload] drawn from `r`: mostly under 256 B, one in 32 log-uniform up to 256 KiB.
std::uint32_t draw_size(std::uint64_t r);

/// The ledger's name for a message: a hash of (sender, receiver, sequence). A phase's sums of
/// these over messages sent and over messages delivered are equal exactly when the same messages
/// were sent and delivered (with overwhelming probability: a 64-bit hash).
inline std::uint64_t message_key(const Header& h) { return draw(h.sender, h.receiver, h.sequence); }

}  // namespace tessera::soak
