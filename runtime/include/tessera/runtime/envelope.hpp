#pragma once
/// The fixed header that precedes every active message's arguments on the wire.
#include <tessera/runtime/handler_registry.hpp>

#include <cstdint>
#include <type_traits>

namespace tessera {

/// Epoch 0 is the global epoch: work outside any epoch the termination layer opened.
using EpochId = std::uint64_t;
inline constexpr EpochId kGlobalEpoch = 0;

struct Envelope {
  enum Flags : std::uint16_t {
    kSystem = 1u << 0,     ///< runtime bookkeeping (collectives, termination waves): not counted
    kBroadcast = 1u << 1,  ///< forwarded down the spanning tree rooted at `root`
  };
  detail::HandlerId handler = detail::kUnassignedHandler;
  std::uint16_t flags = 0;
  std::uint16_t reserved = 0;
  std::int32_t root = -1;     ///< broadcast root; the sender for point-to-point messages
  std::uint32_t reserved2 = 0;
  EpochId epoch = kGlobalEpoch;
  std::uint64_t target = 0;   ///< object group or element the handler runs on; 0 for free handlers

  bool is_system() const { return (flags & kSystem) != 0; }
  bool is_broadcast() const { return (flags & kBroadcast) != 0; }
};
static_assert(sizeof(Envelope) == 32, "the wire header is 32 bytes");
static_assert(std::is_trivially_copyable_v<Envelope>);

namespace detail {
/// The envelope of a message to handler F delivered by invoker I: its target object (0: none),
/// flags, the rank a broadcast's tree is rooted at (the sender's for point-to-point), its epoch.
template <auto F, Invoker I>
Envelope make_envelope(std::uint64_t target, std::uint16_t flags, int root, EpochId epoch) {
  Envelope envelope;
  envelope.handler = handler_id<F, I>();
  envelope.flags = flags;
  envelope.root = root;
  envelope.epoch = epoch;
  envelope.target = target;
  return envelope;
}
}  // namespace detail

}  // namespace tessera
