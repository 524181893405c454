#pragma once
/// Automatic registration of message handlers, with the same id on every rank.
///
/// Naming a handler in `send<&f>` instantiates `HandlerSlot<&f, Invoker>`, whose static member
/// adds {name, invoker, &id} to the process-wide table during static initialization: no
/// registration call is needed. Static initialization order differs between programs and may
/// differ between builds, so ids are not taken from it: when the first runtime starts, the table
/// is sorted by the handlers' full names and each slot gets its index. Every rank runs the same
/// binary, so every rank computes the same ids, and a send reads its id from one static.
///
/// The table is the one piece of process-wide state in the message layer. It is written only
/// during static initialization and frozen by `freeze_handler_ids()`, so several runtimes in one
/// process share it safely.
#include <cstdint>
#include <span>
#include <string_view>

namespace tessera {
class Runtime;
struct Envelope;
}  // namespace tessera

namespace tessera::detail {

using HandlerId = std::uint32_t;
inline constexpr HandlerId kUnassignedHandler = 0xffffffffu;

/// Runs the handler for one delivered message; `payload` excludes the envelope.
using Invoker = void (*)(Runtime&, const Envelope&, std::span<const std::byte> payload);

struct HandlerEntry {
  std::string_view name;  ///< the compiler's full name of the slot: unique per (handler, kind)
  Invoker invoke;
  HandlerId* slot;
};

/// Adds a handler to the table (static initialization only). Returns kUnassignedHandler.
HandlerId register_handler(std::string_view name, Invoker invoke, HandlerId* slot);

/// Sorts the table by name and writes each slot's id. Idempotent and thread-safe.
void freeze_handler_ids();

/// The entry for `id`, or nullptr when no handler has that id.
const HandlerEntry* find_handler(HandlerId id);

/// The handler's readable name (the function or member function), for error messages.
std::string_view readable_handler_name(std::string_view slot_name);

template <auto F, Invoker I>
constexpr std::string_view slot_name() {
  return __PRETTY_FUNCTION__;
}

/// One static id per (handler, invoker kind).
template <auto F, Invoker I>
struct HandlerSlot {
  static inline HandlerId id = kUnassignedHandler;  // constant-initialized, before `registered`
  static inline const bool registered = (register_handler(slot_name<F, I>(), I, &id), true);
};

/// The id of handler F delivered by invoker I; valid once a runtime has started.
template <auto F, Invoker I>
inline HandlerId handler_id() {
  static_cast<void>(HandlerSlot<F, I>::registered);  // odr-use: instantiates the registration
  return HandlerSlot<F, I>::id;
}

}  // namespace tessera::detail
