#pragma once
/// The base class of collection elements.
///
///     struct Tile : tessera::collections::Element<Tile, 2> {
///       Tile() = default;                                  // needed to receive a migration
///       Tile(const Index2D& idx, int n) { ... }            // or Tile(int n): see make_collection
///       void relax(std::vector<double> halo) { ... }       // a handler: any member function
///       void on_leaving() { ... }                          // optional: before it migrates out
///       void on_arrived() { ... }                          // optional: after it migrates in
///       void on_destroy() { ... }                          // optional: before it is destroyed
///       // Optional, in dynamic collections, for --tessera_lb_split_above / _merge_below:
///       std::vector<std::pair<Index2D, Tile>> split();     // pieces at new indices, >= 2
///       double split_weight() const;                       // a piece's share of the load
///       std::optional<Index2D> merge_into() const;         // the index siblings merge into
///       static std::optional<Tile> merge(const Index2D& into, std::span<Tile* const> siblings);
///       template <class Archive> void serialize(Archive& ar) { ar(field, other); }
///     };
///
/// An element knows its index, its collection's proxy and its rank, and may ask to move itself.
/// Its state travels through its cereal `serialize` template (a trivially copyable element is
/// copied as bytes); what the base holds is restored by the collection, not serialized.
#include <tessera/collections/index.hpp>

#include <cstdint>

namespace tessera {
class Runtime;
}

namespace tessera::collections {

template <class T>
class Collection;
template <class T>
class CollectionProxy;

template <class T, std::size_t N>
class Element {
 public:
  static constexpr std::size_t dimensions = N;
  using index_type = Index<N>;

  const Index<N>& index() const { return index_; }
  /// Row-major position of index() within the bounds.
  std::uint64_t linear_id() const { return linear_; }
  /// Migrations this element has made so far (in a dynamic collection, an element inserted again
  /// at an index destroyed before counts on from the earlier element's count plus one).
  std::uint64_t migrations() const { return migrations_; }
  /// The proxy of the collection this element belongs to (defined in proxy.hpp).
  CollectionProxy<T> proxy() const;
  /// The runtime of the rank holding the element now (its rank(), size(), collectives):
  /// handlers reach their runtime here rather than through a process-wide one (proxy.hpp).
  Runtime& runtime() const;
  /// Moves this element to rank `dest` once the running handler returns (defined in proxy.hpp).
  /// Messages sent to it meanwhile are delivered here or forwarded, never lost.
  void migrate(int dest);
  /// Destroys this element (dynamic collections only, membership.hpp) once the running handler
  /// returns; messages that reach it afterwards are dead letters.
  void destroy();

 private:
  friend class Collection<T>;
  Collection<T>* collection_ = nullptr;
  Index<N> index_{};
  std::uint64_t linear_ = 0;
  std::uint64_t migrations_ = 0;
};

}  // namespace tessera::collections
