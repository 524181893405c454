#pragma once
/// Proxies: how applications address collections and their elements.
///
///   auto tiles = make_collection<Tile>(rt, Index2D{8, 8}, 64);   // collective; Tile(idx, 64)
///   tiles[{2, 3}].send<&Tile::relax>(halo);                     // one element
///   tiles.broadcast_from_this_rank<&Tile::start>(step);         // every element once
///   double r = tiles.allreduce(0.0, op::sum{}, [](Tile& t) { return t.residual(); });
///
/// A proxy is a small value (a pointer to this rank's collection manager); it travels in
/// messages as the collection id and resolves to the manager on the receiving rank.
///
/// Reductions are collective over ranks (every rank calls them from the application's flow, as
/// with MPI): each rank combines its local elements' contributions in ascending linear id, then
/// the runtime's spanning-tree reduction combines the ranks. They are exact wherever the elements
/// are, so they hold after any migration. Broadcasts reach every element exactly once, also an
/// element that migrates while the broadcast is in flight (broadcast_log.hpp), and the broadcasts
/// sent from one rank reach each element in the order they were sent.
#include <tessera/collections/collection.hpp>
#include <tessera/runtime/hooks.hpp>
#include <tessera/runtime/collectives.hpp>

#include <optional>

namespace tessera::collections {

template <class T>
class ElementProxy {
 public:
  static constexpr std::size_t N = T::dimensions;
  ElementProxy() = default;
  ElementProxy(Collection<T>* collection, const Index<N>& idx) : collection_(collection), idx_(idx) {}
  // User-provided copies make the proxy non-trivially copyable, so a message argument travels
  // through serialize() (the collection id, resolved on arrival), never as this process's pointer.
  ElementProxy(const ElementProxy& other) : collection_(other.collection_), idx_(other.idx_) {}
  ElementProxy& operator=(const ElementProxy& other) {
    collection_ = other.collection_;
    idx_ = other.idx_;
    return *this;
  }

  const Index<N>& index() const { return idx_; }

  /// Runs member handler H(args...) on the element, wherever it lives. An index outside the
  /// bounds or a destroyed collection is fatal.
  template <auto H, class... A>
  void send(A&&... args) const {
    static_assert(std::is_base_of_v<typename tessera::detail::handler_traits<decltype(H)>::object, T>,
                  "send<&C::handler>: the handler must be a member function of the element type");
    collection_->template send<H>(collection_->checked_linear(idx_), std::forward<A>(args)...);
  }

  /// Inserts this element into a dynamic collection, built on its home as T(idx, args...) when T
  /// has that constructor, else T(args...); from any rank, at any time (membership.hpp).
  template <class... A>
  void insert(A&&... args) const {
    collection_->insert(collection_->checked_linear(idx_), detail::kAtHome, std::forward<A>(args)...);
  }
  /// The same, built on rank `rank`.
  template <class... A>
  void insert_at(int rank, A&&... args) const {
    collection_->insert(collection_->checked_linear(idx_), rank, std::forward<A>(args)...);
  }
  /// Destroys this element of a dynamic collection wherever it is.
  void destroy() const { collection_->destroy_element(collection_->checked_linear(idx_)); }

  template <class Archive>
  void save(Archive& archive) const {
    archive(collection_ ? collection_->id() : std::uint64_t{0}, idx_.at);
  }
  template <class Archive>
  void load(Archive& archive) {
    std::uint64_t id = 0;
    archive(id, idx_.at);
    collection_ = id == 0 ? nullptr : tessera::detail::hooks(serial::decoding_runtime(archive)).template target<Collection<T>>(id);
  }

 private:
  Collection<T>* collection_ = nullptr;
  Index<N> idx_{};
};

template <class T>
class CollectionProxy {
 public:
  static constexpr std::size_t N = T::dimensions;
  CollectionProxy() = default;
  explicit CollectionProxy(Collection<T>* collection) : collection_(collection) {}
  // Not trivially copyable on purpose: as a message argument the proxy travels through
  // serialize() as its collection id, resolved in the receiving rank's runtime (serialize.hpp
  // copies trivially copyable arguments as bytes, which for a pointer would be this process's).
  CollectionProxy(const CollectionProxy& other) : collection_(other.collection_) {}
  CollectionProxy& operator=(const CollectionProxy& other) {
    collection_ = other.collection_;
    return *this;
  }

  std::uint64_t id() const { return collection_->id(); }
  const Index<N>& bounds() const { return collection_->bounds(); }
  Collection<T>& manager() const { return *collection_; }

  ElementProxy<T> operator[](const Index<N>& idx) const { return ElementProxy<T>(collection_, idx); }

  /// Runs member handler H(args...) once on every element of the collection, per call, from the
  /// rank that calls it: not a collective. Call it on one rank (rank 0 in SPMD code, or from a
  /// handler); each of P ranks calling it runs every element's handler P times.
  template <auto H, class... A>
  void broadcast_from_this_rank(A&&... args) const {
    static_assert(std::is_base_of_v<typename tessera::detail::handler_traits<decltype(H)>::object, T>,
                  "broadcast_from_this_rank<&C::handler>: the handler must be a member function of the element type");
    collection_->template broadcast<H>(std::forward<A>(args)...);
  }
  /// The name before 1.0, which read as a collective to MPI programmers.
  template <auto H, class... A>
  [[deprecated("a collection's broadcast runs from the calling rank only: call broadcast_from_this_rank on one rank")]]
  void broadcast(A&&... args) const {
    broadcast_from_this_rank<H>(std::forward<A>(args)...);
  }

  /// The element at `idx` if it is on this rank, else nullptr.
  T* local(const Index<N>& idx) const { return collection_->local(collection_->checked_linear(idx)); }

  /// Collective, blocking: op over contribute(element) for every element, on every rank.
  template <class R, class Op, class F>
  R allreduce(R init, Op op, F&& contribute) const {
    return collection_->runtime().collectives().allreduce(local_partial(std::move(init), op, contribute), op);
  }

  /// Collective, non-blocking: done(result) runs on rank 0 once every rank has contributed.
  template <class R, class Op, class F>
  void reduce(R init, Op op, F&& contribute, std::function<void(R)> done) const {
    collection_->runtime().collectives().template reduce<R>(0, local_partial(std::move(init), op, contribute),
                                                            op, std::move(done));
  }

  /// Collective: the result is delivered to element `target` as H(result).
  template <auto H, class R, class Op, class F>
  void reduce_to(const Index<N>& target, R init, Op op, F&& contribute) const {
    const std::uint64_t e = collection_->checked_linear(target);
    Collection<T>* collection = collection_;
    collection_->runtime().collectives().template reduce<R>(
        0, local_partial(std::move(init), op, contribute), op,
        [collection, e](R result) { collection->template send<H>(e, std::move(result)); });
  }

  /// Collective: waits for quiescence and destroys every element; later sends are fatal.
  void destroy() const { collection_->destroy(); }

  /// True for a collection made by make_dynamic_collection.
  bool dynamic() const { return collection_->dynamic(); }
  /// Insertions, destructions and dead letters on this rank since creation (membership.hpp).
  const MembershipCounts& membership() const { return collection_->membership(); }

  // Saving leaves the proxy as it is; loading resolves the id in the runtime that decodes the
  // message or state (serial::decoding_runtime), so each of two runtimes in one process finds its
  // own collection.
  template <class Archive>
  void save(Archive& archive) const {
    archive(collection_ ? collection_->id() : std::uint64_t{0});
  }
  template <class Archive>
  void load(Archive& archive) {
    std::uint64_t id = 0;
    archive(id);
    collection_ = id == 0 ? nullptr : tessera::detail::hooks(serial::decoding_runtime(archive)).template target<Collection<T>>(id);
  }

 private:
  template <class R, class Op, class F>
  R local_partial(R acc, Op& op, F& contribute) const {
    collection_->for_each_local([&](T& element) { acc = op(std::move(acc), contribute(element)); });
    return acc;
  }

  Collection<T>* collection_ = nullptr;
};

template <class T, std::size_t N>
CollectionProxy<T> Element<T, N>::proxy() const {
  return CollectionProxy<T>(collection_);
}

template <class T, std::size_t N>
Runtime& Element<T, N>::runtime() const {
  return collection_->runtime();
}

template <class T, std::size_t N>
void Element<T, N>::migrate(int dest) {
  Collection<T>* collection = collection_;
  const std::uint64_t e = linear_;
  // Deferred: the element is destroyed here once its state has left, so not inside its handler.
  collection->runtime().post_local([collection, e, dest] { collection->migrate(e, dest); });
}

template <class T, std::size_t N>
void Element<T, N>::destroy() {
  Collection<T>* collection = collection_;
  const std::uint64_t e = linear_;
  collection->runtime().post_local([collection, e] { collection->destroy_from_element(e); });
}

/// Creates a collection collectively with the given home mapper: every rank constructs the
/// elements it homes, as T(idx, args...) when T has that constructor, else T(args...). Every
/// rank must create its collections in the same order.
template <class T, class... A>
CollectionProxy<T> make_mapped_collection(Runtime& rt, const Index<T::dimensions>& bounds,
                                          Mapper<T::dimensions> mapper, A&&... args) {
  auto collection = std::make_unique<Collection<T>>(rt, tessera::detail::hooks(rt).next_collective_target_id(), bounds, std::move(mapper));
  collection->construct_home_elements(std::forward<A>(args)...);
  CollectionProxy<T> proxy(collection.get());
  tessera::detail::hooks(rt).adopt(std::move(collection));
  return proxy;
}

/// Creates an empty dynamic collection collectively (membership.hpp): elements are inserted and
/// destroyed at run time from any rank; `mapper` gives each index's home. On a restart whose
/// checkpoint holds it, it is restored with the elements it had.
template <class T>
CollectionProxy<T> make_dynamic_collection(Runtime& rt, const Index<T::dimensions>& bounds,
                                           Mapper<T::dimensions> mapper = Mapper<T::dimensions>(block_map<T::dimensions>)) {
  auto collection = std::make_unique<Collection<T>>(rt, tessera::detail::hooks(rt).next_collective_target_id(), bounds,
                                                    std::move(mapper), true);
  collection->construct_home_elements();
  CollectionProxy<T> proxy(collection.get());
  tessera::detail::hooks(rt).adopt(std::move(collection));
  return proxy;
}

/// Creates a collection collectively with the block mapper (mapper.hpp).
template <class T, class... A>
CollectionProxy<T> make_collection(Runtime& rt, const Index<T::dimensions>& bounds, A&&... args) {
  return make_mapped_collection<T>(rt, bounds, Mapper<T::dimensions>(block_map<T::dimensions>),
                                   std::forward<A>(args)...);
}

}  // namespace tessera::collections
