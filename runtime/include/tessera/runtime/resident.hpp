#pragma once
/// What a Runtime holds for the layers above it, typed.
///
/// A runtime keeps three tables for the layers built on it (hooks.hpp reaches them):
/// - message targets: the object an envelope's `target` id names (a collection, an object
///   group's instance on this rank, the termination layer's epoch table);
/// - services: one object per type and per runtime (the termination layer, the phase manager,
///   the steal service), so two runtimes in one process never share one;
/// - owned objects: what lives exactly as long as the runtime (collections, group instances,
///   the phase manager), destroyed in the order they were adopted, after the runtime's last
///   drain.
///
/// Every entry is a `Resident`: a class with a virtual destructor and nothing else. The tables
/// therefore hold typed pointers, never `void*`, and a layer turns an entry back into its own
/// type with one `static_cast` (no lookup by name, no RTTI): the message path costs what a
/// `void*` table cost.
#include <utility>

namespace tessera::detail {

class Resident {
 public:
  Resident() = default;
  Resident(const Resident&) = default;
  Resident& operator=(const Resident&) = default;
  virtual ~Resident() = default;
};

/// An object group's instance of a user class T, as a Resident: the group owns T by value, so
/// T needs no base class of Tessera's.
template <class T>
class GroupInstance final : public Resident {
 public:
  template <class... A>
  explicit GroupInstance(A&&... args) : instance(std::forward<A>(args)...) {}
  T instance;
};

/// The key of a service type S in a runtime's service table: one address per type.
struct ServiceKey {};
template <class S>
inline constexpr ServiceKey service_key{};

}  // namespace tessera::detail
