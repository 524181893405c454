#pragma once
/// The wire layouts of collection messages, for the runtime's argument encoder.
///
/// The runtime encodes a message from the parameter list of the function named in `send_to`;
/// element messages carry a fixed header before the handler's own arguments, so each layout is
/// named by a function whose parameters are exactly what travels. These functions are never
/// called: the collection's invokers decode the payload and dispatch to the element.
#include <tessera/collections/phase.hpp>
#include <tessera/runtime/handler_traits.hpp>

#include <cstdint>
#include <tuple>

namespace tessera::collections::detail {

/// Precedes the arguments of every point-to-point element message (32 bytes).
struct ElementHeader {
  std::uint64_t element = 0;  ///< linear id of the destination element
  ElementKey from;            ///< the element that sent it, or the rank ({0, 0})
  std::int32_t sender = 0;    ///< rank that sent it first: told the location after a forward
  std::uint32_t hops = 0;     ///< forwards so far
};
static_assert(sizeof(ElementHeader) == 32 && std::is_trivially_copyable_v<ElementHeader>);

template <auto H, class Params = typename tessera::detail::handler_traits<decltype(H)>::params>
struct ElementWire;
template <auto H, class... Ps>
struct ElementWire<H, std::tuple<Ps...>> {
  static void layout(ElementHeader, Ps...) {}
};

template <auto H, class Params = typename tessera::detail::handler_traits<decltype(H)>::params>
struct BroadcastWire;
/// A broadcast: its sender, its sequence number from its root rank, the handler's arguments.
template <auto H, class... Ps>
struct BroadcastWire<H, std::tuple<Ps...>> {
  static void layout(ElementKey, std::uint64_t, Ps...) {}
};

/// A migrating element: its id, its migration count after this move, its broadcast marks (raw
/// BroadcastMark bytes) and its state.
template <class T>
struct ArriveWire {
  static void layout(std::uint64_t, std::uint64_t, std::span<const std::byte>, T) {}
};

/// An insertion (membership.hpp): to the element's home with `version` kUndecided and `rank`
/// the rank asked for (kAtHome: the home); from the home to that rank with the version the home
/// gave it. The constructor's arguments follow the header.
inline constexpr std::uint64_t kUndecided = ~std::uint64_t{0};
inline constexpr std::int32_t kAtHome = -1;
struct InsertHeader {
  std::uint64_t element = 0;
  std::uint64_t version = kUndecided;
  std::int32_t rank = kAtHome;
  std::uint32_t reserved = 0;
};
static_assert(sizeof(InsertHeader) == 24 && std::is_trivially_copyable_v<InsertHeader>);
template <class... Ps>
struct InsertWire {
  static void layout(InsertHeader, Ps...) {}
};

/// The destruction of one element, routed as a message to it.
struct DestroyWire {
  static void layout(ElementHeader) {}
};

/// "Element `element` was on `rank` after `version` migrations" (to homes and senders); rank
/// LocationTable::kDestroyed says it was destroyed.
struct LocationWire {
  static void layout(std::uint64_t, std::int32_t, std::uint64_t) {}
};

}  // namespace tessera::collections::detail
