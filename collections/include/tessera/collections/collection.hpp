#pragma once
/// One collection's manager on one rank: its local elements, their locations, and the invokers
/// that deliver element messages, broadcasts and migrations. Applications use it through
/// CollectionProxy (proxy.hpp); the LB manager reaches it through CollectionBase (phase.hpp).
///
/// Cost model: a message to an element on this rank or at a cached location is one runtime
/// send (a 32-byte header before the arguments); a message to a stale location costs one more
/// send per forward plus one small location correction back to the original sender. A broadcast
/// is one spanning-tree broadcast, and each rank keeps its arguments until the end of the phase
/// for elements that arrive having missed it (broadcast_log.hpp). A dynamic collection's
/// elements are inserted and destroyed at run time (membership.hpp).
#include <tessera/collections/broadcast_log.hpp>
#include <tessera/runtime/hooks.hpp>
#include <tessera/collections/checkpoint/checkpoint.hpp>
#include <tessera/collections/element.hpp>
#include <tessera/collections/location.hpp>
#include <tessera/collections/mapper.hpp>
#include <tessera/collections/membership.hpp>
#include <tessera/collections/phase.hpp>
#include <tessera/collections/state_codec.hpp>
#include <tessera/collections/type_tag.hpp>
#include <tessera/collections/wire.hpp>
#include <tessera/runtime/runtime.hpp>

#include <algorithm>
#include <concepts>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::collections {

template <class T>
class Collection final : public CollectionBase {
 public:
  static constexpr std::size_t N = T::dimensions;
  static_assert(std::is_base_of_v<Element<T, N>, T>,
                "a collection element must derive from tessera::collections::Element<T, N>");

  /// A `dynamic` collection starts empty and accepts insert() and destroy_element().
  Collection(Runtime& rt, std::uint64_t id, const Index<N>& bounds, Mapper<N> mapper, bool dynamic = false)
      : rt_(rt),
        phases_(PhaseManager::of(rt)),
        id_(id),
        ordinal_(phases_.next_ordinal()),
        bounds_(bounds),
        mapper_(std::move(mapper)),
        locations_(rt.rank(), [this](std::uint64_t e) { return home_of(e); }),
        dynamic_(dynamic) {
    if (!checked_volume(bounds_))
      fatal("collection bounds {} must be positive in every dimension and hold fewer than 2^63 indices",
            to_string(bounds_));
  }
  // The runtime destroys the phase manager and the collections together: no detach here.
  ~Collection() override = default;

  std::uint64_t id() const override { return id_; }
  const Index<N>& bounds() const { return bounds_; }
  Runtime& runtime() { return rt_; }
  bool destroyed() const { return destroyed_; }
  bool dynamic() const { return dynamic_; }
  /// Insertions, destructions and dead letters on this rank since the collection was created.
  const MembershipCounts& membership() const { return membership_.total(); }

  /// Constructs every element whose home is this rank (none in a dynamic collection); then
  /// registers the manager, which releases messages that reached this rank before it existed.
  /// On a restart whose checkpoint holds this collection (checkpoint/checkpoint.hpp), restores
  /// the elements instead.
  template <class... A>
  void construct_home_elements(A&&... args) {
    if (checkpoint::RestartImage* image = phases_.restart(); image && image->collection(ordinal_)) {
      restore_elements(*image);
      return;
    }
    const std::uint64_t volume = dynamic_ ? 0 : bounds_.volume();
    for (std::uint64_t e = 0; e < volume; ++e) {
      if (home_of(e) != rt_.rank()) continue;
      const Index<N> idx = delinearize(e, bounds_);
      std::unique_ptr<T> element;
      if constexpr (std::is_constructible_v<T, const Index<N>&, A&...>) element = std::make_unique<T>(idx, args...);
      else element = std::make_unique<T>(args...);
      adopt(e, std::move(element), 0);
    }
    phases_.attach(this);
    tessera::detail::hooks(rt_).register_target(id_, this);
  }

  /// The element at `e` if it is on this rank, else nullptr.
  T* local(std::uint64_t e) const {
    auto it = elements_.find(e);
    return it == elements_.end() ? nullptr : it->second.element.get();
  }
  std::size_t local_count() const { return elements_.size(); }

  std::uint64_t checked_linear(const Index<N>& idx) const {
    if (destroyed_) fatal("send to element {} of collection {}, which was destroyed", to_string(idx), id_);
    if (!idx.inside(bounds_)) index_out_of_bounds(idx, bounds_, id_);
    return linearize(idx, bounds_);
  }

  template <auto H, class... A>
  void send(std::uint64_t e, A&&... args) {
    const int dest = elements_.contains(e) ? rt_.rank() : locations_.route(e);
    const detail::ElementHeader header{e, phases_.current(), rt_.rank(), 0};
    tessera::detail::hooks(rt_).send_to<&detail::ElementWire<H>::layout, &Collection::deliver<H>>(dest, id_, 0, header,
                                                                           std::forward<A>(args)...);
  }

  template <auto H, class... A>
  void broadcast(A&&... args) {
    if (destroyed_) fatal("broadcast to collection {}, which was destroyed", id_);
    tessera::detail::hooks(rt_).broadcast_to<&detail::BroadcastWire<H>::layout, &Collection::deliver_broadcast<H>>(
        id_, 0, phases_.current(), broadcasts_.next_sequence(), std::forward<A>(args)...);
  }

  /// Inserts element `e`, built as T(idx, args...) or T(args...) on rank `at` (detail::kAtHome:
  /// its home), unless it is live: then the insertion waits at the home for its destruction
  /// (membership.hpp). A collection that is not dynamic, or a rank outside [0, size), is fatal.
  template <class... A>
  void insert(std::uint64_t e, int at, A&&... args) {
    if (!dynamic_)
      fatal("insert of element {} into collection {}: its elements are fixed at creation; create it with "
            "make_dynamic_collection to insert and destroy elements",
            to_string(delinearize(e, bounds_)), id_);
    if (at != detail::kAtHome && (at < 0 || at >= rt_.size()))
      fatal("insert of element {} into collection {} on rank {}: expected a rank in [0, {})",
            to_string(delinearize(e, bounds_)), id_, at, rt_.size());
    const int home = home_of(e);
    if (home == rt_.rank()) {
      // The home decides at once: no message to itself.
      if (const auto birth = admit(e, at)) return place(e, *birth, std::forward<A>(args)...);
    }
    using Wire = detail::InsertWire<std::decay_t<A>...>;
    tessera::detail::hooks(rt_).send_to<&Wire::layout, &Collection::on_insert<std::decay_t<A>...>>(
        home, id_, 0, detail::InsertHeader{e, detail::kUndecided, at, 0}, std::forward<A>(args)...);
  }

  /// Destroys element `e` wherever it is: routed like a message to it (membership.hpp).
  void destroy_element(std::uint64_t e) {
    if (!dynamic_)
      fatal("destroy of element {} of collection {}: its elements are fixed at creation; create it with "
            "make_dynamic_collection to insert and destroy elements",
            to_string(delinearize(e, bounds_)), id_);
    const int dest = elements_.contains(e) ? rt_.rank() : locations_.route(e);
    const detail::ElementHeader header{e, phases_.current(), rt_.rank(), 0};
    tessera::detail::hooks(rt_).send_to<&detail::DestroyWire::layout, &Collection::on_destroy>(dest, id_, 0, header);
  }
  /// Element::destroy(), after the element's handler returned: at once when it is still here.
  void destroy_from_element(std::uint64_t e) {
    if (elements_.contains(e)) destroy_local(e);
    else destroy_element(e);
  }

  /// Calls f(element) for every local element in ascending linear id.
  template <class F>
  void for_each_local(F&& f) const {
    for (std::uint64_t e : local_elements()) f(*elements_.at(e).element);
  }

  std::vector<std::uint64_t> local_elements() const override {
    std::vector<std::uint64_t> ids;
    ids.reserve(elements_.size());
    for (const auto& entry : elements_) ids.push_back(entry.first);
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  std::vector<std::int64_t> index_of(std::uint64_t e) const override {
    return delinearize(e, bounds_).to_vector();
  }
  std::optional<double> footprint_of(std::uint64_t e) const override {
    if constexpr (requires(const T& t) { static_cast<double>(t.footprint_bytes()); }) {
      const auto it = elements_.find(e);
      if (it != elements_.end()) return static_cast<double>(it->second.element->footprint_bytes());
    }
    return std::nullopt;
  }
  int home_of(std::uint64_t e) const override { return home_among(e, rt_.home_ranks()); }

  bool migrate(std::uint64_t e, int dest) override {
    auto it = elements_.find(e);
    if (it == elements_.end()) return false;
    if (dest == rt_.rank()) return true;
    if (dest < 0 || dest >= rt_.size())
      fatal("migration of element {} of collection {} to rank {}: expected a rank in [0, {})",
            to_string(it->second.element->index_), id_, dest, rt_.size());
    Local leaving = std::move(it->second);
    elements_.erase(it);
    if constexpr (requires(T& t) { t.on_leaving(); }) leaving.element->on_leaving();
    const std::uint64_t version = leaving.element->migrations_ + 1;
    // The pointer is set before the state leaves, so a message arriving next is forwarded after it.
    locations_.learn(e, dest, version);
    send_state(dest, e, version, leaving);
    return true;
  }

  /// At global quiescence every element has run every broadcast: the kept ones can go; and no
  /// insertion is in flight, so what is still held is a dead letter.
  void quiescent() override {
    broadcasts_.clear();
    if (membership_.held() > 0)
      membership_.expire(rt_, id_, [this](std::uint64_t e) { return to_string(delinearize(e, bounds_)); });
  }
  MembershipCounts take_membership_counts() override { return membership_.take_phase(); }

  // ---- Split and merge at a balancing (phase.hpp, lb/reshape.hpp) ----
  static constexpr bool kSplits = requires(T& t) {
    { t.split() } -> std::same_as<std::vector<std::pair<Index<N>, T>>>;
  };
  static constexpr bool kMerges = requires(const T& t, const Index<N>& into, std::span<T* const> group) {
    { t.merge_into() } -> std::same_as<std::optional<Index<N>>>;
    { T::merge(into, group) } -> std::same_as<std::optional<T>>;
  };
  bool splits() const override { return dynamic_ && kSplits; }
  bool merges() const override { return dynamic_ && kMerges; }
  std::vector<std::pair<std::uint64_t, double>> split_local(std::uint64_t e, double load, double split_load,
                                                            int max_depth) override {
    std::vector<std::pair<std::uint64_t, double>> made;
    if constexpr (kSplits) {
      auto it = elements_.find(e);
      if (!dynamic_ || it == elements_.end()) return made;
      std::vector<std::pair<Index<N>, T>> pieces;
      std::vector<double> loads;
      if (!split_value(*it->second.element, load, split_load, max_depth, pieces, loads)) return made;
      destroy_local(e);
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        const std::uint64_t id = checked_linear(pieces[k].first);
        insert(id, rt_.rank(), std::move(pieces[k].second));
        made.emplace_back(id, loads[k]);
      }
    }
    return made;
  }
  std::optional<std::uint64_t> merge_target(std::uint64_t e) const override {
    if constexpr (kMerges) {
      auto it = elements_.find(e);
      if (!dynamic_ || it == elements_.end()) return std::nullopt;
      const std::optional<Index<N>> into = it->second.element->merge_into();
      if (into && into->inside(bounds_)) return linearize(*into, bounds_);
    }
    return std::nullopt;
  }
  bool merge_local(std::uint64_t into, const std::vector<std::uint64_t>& group) override {
    if constexpr (kMerges) {
      std::vector<T*> siblings;
      for (std::uint64_t e : group) {
        auto it = elements_.find(e);
        if (it == elements_.end()) return false;
        siblings.push_back(it->second.element.get());
      }
      std::optional<T> merged = T::merge(delinearize(into, bounds_), std::span<T* const>(siblings));
      if (!merged) return false;
      for (std::uint64_t e : group) destroy_local(e);
      // After the destructions: when `into` is one of the group, its home learns of that first.
      insert(into, rt_.rank(), std::move(*merged));
      return true;
    }
    return false;
  }

  std::uint64_t ordinal() const override { return ordinal_; }
  std::string type_tag() const override { return collections::type_tag<T>(); }
  std::vector<std::int64_t> shape() const override { return bounds_.to_vector(); }
  void write_elements(checkpoint::RankFileWriter& writer) const override {
    for (std::uint64_t e : local_elements()) {
      const T& element = *elements_.at(e).element;
      serial::encode(writer.begin_element(ordinal_, e, element.migrations_), element);
      writer.end_element();
    }
  }

  // ---- A change of the rank set (runtime/rank_change.hpp) ----
  void before_cut(const RankChange& change) override {
    if (change.joining() > 0) return;  // an expand keeps every number and every home
    const int self = change.new_rank_of[static_cast<std::size_t>(rt_.rank())];
    const auto tell_new_home = [&](std::uint64_t e, int rank, std::uint64_t version) {
      const int new_home = home_among(e, change.new_size);
      tessera::detail::hooks(rt_).send_to<&detail::LocationWire::layout, &Collection::on_rescale_fact>(
          change.old_rank_of[static_cast<std::size_t>(new_home)], id_, Envelope::kSystem, e, rank, version);
    };
    if (self >= 0)
      for (const auto& [e, local] : elements_) tell_new_home(e, self, local.element->migrations_);
    else if (!elements_.empty())
      fatal("rank {} leaves at a rescale still holding {} element(s) of collection {}: the evacuation must move them first",
            rt_.rank(), elements_.size(), id_);
    // A destroyed index's version is what its next insertion numbers itself from: the old home
    // hands it on.
    locations_.for_each([&](std::uint64_t e, const LocationTable::Fact& fact) {
      if (fact.destroyed() && home_of(e) == rt_.rank()) tell_new_home(e, LocationTable::kDestroyed, fact.version);
    });
  }
  void after_cut(const RankChange& change) override {
    if (change.joining() == 0) {
      locations_.reset(rt_.rank());
      for (const auto& [e, local] : elements_) locations_.learn(e, rt_.rank(), local.element->migrations_);
      for (const auto& fact : rescale_facts_) locations_.learn(fact.element, fact.rank, fact.version);
      rescale_facts_.clear();
    }
    // Broadcasts are numbered per root rank, the roots are renumbered at a shrink and a joining
    // process starts with none: every rank starts again from nothing, which is exact at
    // quiescence, when every element has run every broadcast.
    broadcasts_ = BroadcastLog<Replay>();
    for (auto& [e, local] : elements_) local.marks = BroadcastMarks();
  }

  /// Collective: waits for quiescence, then destroys every element. Sends afterwards are fatal.
  void destroy() {
    rt_.drain();
    elements_.clear();
    broadcasts_.clear();
    destroyed_ = true;
    phases_.detach(id_);
    tessera::detail::hooks(rt_).retire_target(id_);
  }

 private:
  // The home of `e` among `ranks` ranks (the runtime's size, or the size after a rescale).
  int home_among(std::uint64_t e, int ranks) const {
    const Index<N> idx = delinearize(e, bounds_);
    const int home = mapper_(idx, bounds_, ranks);
    if (home < 0 || home >= ranks)
      fatal("the mapper of collection {} put element {} on rank {}: expected a rank in [0, {})", id_,
            to_string(idx), home, ranks);
    return home;
  }

  // An element on this rank, with the broadcasts it has run (broadcast_log.hpp).
  struct Local {
    std::unique_ptr<T> element;
    BroadcastMarks marks;
  };
  // Runs a kept broadcast again on one element that arrived having missed it.
  using Replay = void (*)(Collection&, std::uint64_t, T&, std::span<const std::byte>);

  Local& adopt(std::uint64_t e, std::unique_ptr<T> element, std::uint64_t version, BroadcastMarks marks = {}) {
    Element<T, N>& base = *element;
    base.collection_ = this;
    base.index_ = delinearize(e, bounds_);
    base.linear_ = e;
    base.migrations_ = version;
    locations_.learn(e, rt_.rank(), version);
    return elements_.insert_or_assign(e, Local{std::move(element), std::move(marks)}).first->second;
  }

  // Collective: the elements this rank holds after a restart, each home told where its elements
  // are, every element's on_arrived() run, and the announcements delivered before anyone sends.
  void restore_elements(checkpoint::RestartImage& image) {
    const checkpoint::CollectionEntry& recorded = *image.collection(ordinal_);
    if (recorded.type != type_tag() || recorded.shape != shape()) {
      // Every rank reads the same manifest and stops here alike.
      rt_.stop(fmt::format("{}: collection {} was written with element type '{}' and bounds [{}]; the program "
                           "created it with '{}' and [{}]",
                           (image.dir() / checkpoint::kManifestName).string(), ordinal_, recorded.type,
                           fmt::join(recorded.shape, ", "), type_tag(), fmt::join(shape(), ", ")));
    }
    const std::uint64_t volume = bounds_.volume();
    image.restore(
        ordinal_, [this](std::uint64_t e) { return home_of(e); },
        [&](std::uint64_t e, std::uint64_t migrations, std::span<const std::byte> state) {
          if (e >= volume) fatal("{}: element {} is outside the bounds of collection {}", image.dir().string(), e, ordinal_);
          auto element = std::make_unique<T>();
          serial::Reader reader(state, &rt_);
          detail::decode_into(reader, *element);
          adopt(e, std::move(element), migrations);
        });
    phases_.attach(this);
    tessera::detail::hooks(rt_).register_target(id_, this);
    for (std::uint64_t e : local_elements()) {
      T& element = *elements_.at(e).element;
      const int home = home_of(e);
      if (home != rt_.rank())
        tessera::detail::hooks(rt_).send_to<&detail::LocationWire::layout, &Collection::on_location>(home, id_, Envelope::kSystem, e,
                                                                             rt_.rank(), element.migrations_);
      if constexpr (requires(T& t) { t.on_arrived(); }) element.on_arrived();
    }
    rt_.drain();
  }

  // A small state joins the destination's batch like any message. A large one is written once,
  // straight into a message of exactly its size that leaves on its own: copying it into a batch
  // would cost a second pass over the state and a regrown batch for no coalescing benefit.
  void send_state(int dest, std::uint64_t e, std::uint64_t version, const Local& leaving) {
    const T& element = *leaving.element;
    const std::span<const std::byte> marks = leaving.marks.bytes();
    const std::size_t state_bytes = detail::encoded_size(element);
    if (state_bytes < rt_.flags().coalesce_bytes) {
      tessera::detail::hooks(rt_).send_to<&detail::ArriveWire<T>::layout, &Collection::arrive>(dest, id_, 0, e, version, marks, element);
      return;
    }
    tessera::detail::hooks(rt_).send_encoded<&detail::ArriveWire<T>::layout, &Collection::arrive>(
        dest, id_, 0, sizeof e + sizeof version + sizeof(std::uint64_t) + marks.size() + state_bytes,
        [&](Buffer& record) {
          serial::encode(record, e);
          serial::encode(record, version);
          serial::encode(record, marks);
          serial::encode(record, element);
        });
  }

  static Collection& self(Runtime& rt, const Envelope& envelope) {
    auto* collection = tessera::detail::hooks(rt).target<Collection>(envelope.target);
    if (collection->destroyed_)
      fatal("a message reached collection {} after it was destroyed", collection->id_);
    return *collection;
  }

  template <auto H>
  static void deliver(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
    using params = typename tessera::detail::handler_traits<decltype(H)>::params;
    Collection& c = self(rt, envelope);
    serial::Reader reader(payload, &rt);
    const auto header = serial::decode<detail::ElementHeader>(reader);
    const auto arguments = payload.subspan(sizeof(detail::ElementHeader));
    auto it = c.elements_.find(header.element);
    if (it == c.elements_.end()) {
      const int dest = c.absent(header.element);
      if (dest != rt.rank()) c.forward<H>(dest, header, tessera::detail::Decoder<params>::decode(arguments, rt));
      else c.membership_.hold(header.element, &Collection::deliver<H>, envelope, payload);
      return;
    }
    T& element = *it->second.element;
    if (header.hops > 0 && header.sender != rt.rank())
      tessera::detail::hooks(rt).send_to<&detail::LocationWire::layout, &Collection::on_location>(
          header.sender, c.id_, Envelope::kSystem, header.element, rt.rank(), element.migrations_);
    const ElementKey key{c.id_, header.element};
    // A message from outside any element comes from its sending rank: {0, rank}.
    const ElementKey from = header.from.is_rank() ? ElementKey{0, static_cast<std::uint64_t>(header.sender)} : header.from;
    c.phases_.record_edge(from, key, arguments.size());
    PhaseManager::Scope scope(c.phases_, key);
    std::apply([&element](auto&&... a) { (element.*H)(std::forward<decltype(a)>(a)...); },
               tessera::detail::Decoder<params>::decode(arguments, rt));
  }

  template <auto H, class Tuple>
  void forward(int dest, detail::ElementHeader header, Tuple&& arguments) {
    header.hops += 1;
    std::apply(
        [&](auto&&... a) {
          tessera::detail::hooks(rt_).send_to<&detail::ElementWire<H>::layout, &Collection::deliver<H>>(dest, id_, 0, header, a...);
        },
        std::forward<Tuple>(arguments));
  }

  template <auto H>
  static void deliver_broadcast(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
    Collection& c = self(rt, envelope);
    serial::Reader reader(payload, &rt);
    reader.take(sizeof(ElementKey));
    const auto sequence = serial::decode<std::uint64_t>(reader);
    const auto arguments = payload.subspan(sizeof(ElementKey) + sizeof sequence);
    c.broadcasts_.record(envelope.root, sequence, &Collection::run_broadcast<H>, arguments);
    for (std::uint64_t e : c.local_elements()) {
      Local& local = c.elements_.at(e);
      // Ahead: it ran this broadcast on the rank it came from.
      if (local.marks.of(envelope.root) >= sequence) continue;
      local.marks.set(envelope.root, sequence);
      run_broadcast<H>(c, e, *local.element, arguments);
    }
  }

  template <auto H>
  static void run_broadcast(Collection& c, std::uint64_t e, T& element, std::span<const std::byte> arguments) {
    using params = typename tessera::detail::handler_traits<decltype(H)>::params;
    PhaseManager::Scope scope(c.phases_, ElementKey{c.id_, e});
    std::apply([&element](auto&&... a) { (element.*H)(std::forward<decltype(a)>(a)...); },
               tessera::detail::Decoder<params>::decode(arguments, c.rt_));
  }

  static void arrive(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
    Collection& c = self(rt, envelope);
    serial::Reader reader(payload, &rt);
    const auto e = serial::decode<std::uint64_t>(reader);
    const auto version = serial::decode<std::uint64_t>(reader);
    auto marks = BroadcastMarks::from_bytes(serial::decode<std::span<const std::byte>>(reader));
    auto element = std::make_unique<T>();
    detail::decode_into(reader, *element);
    Local& local = c.adopt(e, std::move(element), version, std::move(marks));
    const int home = c.home_of(e);
    if (home != rt.rank())
      tessera::detail::hooks(rt).send_to<&detail::LocationWire::layout, &Collection::on_location>(home, c.id_, Envelope::kSystem, e,
                                                                           rt.rank(), version);
    T& arrived = *local.element;
    if constexpr (requires(T& t) { t.on_arrived(); }) arrived.on_arrived();
    c.broadcasts_.catch_up(local.marks, [&](Replay replay, std::span<const std::byte> arguments) {
      replay(c, e, arrived, arguments);
    });
  }

  // Before a cut: what this rank must know as an element's home after it (kept until after_cut).
  static void on_rescale_fact(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
    Collection& c = self(rt, envelope);
    auto [e, rank, version] = tessera::detail::Decoder<std::tuple<std::uint64_t, std::int32_t, std::uint64_t>>::decode(payload, rt);
    c.rescale_facts_.push_back(RescaleFact{e, rank, version});
  }

  static void on_location(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
    Collection& c = self(rt, envelope);
    auto [e, rank, version] = tessera::detail::Decoder<std::tuple<std::uint64_t, std::int32_t, std::uint64_t>>::decode(payload, rt);
    // A home that learns something new may release what waited for it (a destruction, for an
    // insertion of the same index).
    if (c.locations_.learn(e, rank, version) && c.dynamic_ && c.membership_.held() > 0) c.release_held(e);
  }

  // Splits `element` (`load` seconds) and each piece whose share is still above `split_load`
  // again, `depth` levels at most: the leaves and their loads. False when it gave < 2 pieces.
  bool split_value(T& element, double load, double split_load, int depth, std::vector<std::pair<Index<N>, T>>& leaves,
                   std::vector<double>& loads) {
    if constexpr (kSplits) {
      if (depth <= 0) return false;
      std::vector<std::pair<Index<N>, T>> pieces = element.split();
      if (pieces.size() < 2) return false;
      std::vector<double> weight(pieces.size(), 1.0);
      if constexpr (requires(const T& t) { static_cast<double>(t.split_weight()); })
        for (std::size_t k = 0; k < pieces.size(); ++k) weight[k] = std::max(0.0, pieces[k].second.split_weight());
      double sum = 0.0;
      for (double w : weight) sum += w;
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        const double share = sum > 0.0 ? load * weight[k] / sum : load / static_cast<double>(pieces.size());
        // A piece split again knows its index and collection, as a live element does.
        Element<T, N>& base = pieces[k].second;
        base.collection_ = this;
        base.index_ = pieces[k].first;
        base.linear_ = checked_linear(pieces[k].first);
        if (share > split_load && split_value(pieces[k].second, share, split_load, depth - 1, leaves, loads)) continue;
        leaves.push_back(std::move(pieces[k]));
        loads.push_back(share);
      }
      return true;
    }
    return false;
  }

  // ---- Dynamic membership (membership.hpp) ----

  // Where a message for `e`, which is not on this rank, goes: to the newest known location, or
  // to the home when nothing live is known; this rank when it is the home and `e` is not live,
  // where the message waits for an insertion (membership.hpp).
  int absent(std::uint64_t e) const {
    const LocationTable::Fact* fact = locations_.find(e);
    if (fact != nullptr && !fact->destroyed() && fact->rank != rt_.rank()) return fact->rank;
    return home_of(e);
  }
  void release_held(std::uint64_t e) {
    auto held = membership_.release(e);
    if (!held.empty()) Membership::replay(rt_, held);
  }

  struct Birth {
    int rank;
    std::uint64_t version;
  };
  // At the home: where and with which version `e` is born, recorded before anyone else can
  // know of it; nullopt while `e` is live here or elsewhere (the insertion must wait).
  std::optional<Birth> admit(std::uint64_t e, int at) {
    // A live element here or elsewhere has a fact that is not "destroyed" (adopt records one).
    const LocationTable::Fact* fact = locations_.find(e);
    if (fact != nullptr && !fact->destroyed()) return std::nullopt;
    const Birth birth{at == detail::kAtHome ? rt_.rank() : at, fact != nullptr ? fact->version + 1 : 0};
    locations_.learn(e, birth.rank, birth.version);
    return birth;
  }
  // At the home, after admit: builds the element here or has its rank build it, then delivers
  // what waited for it (to it here, or forwarded behind the construction).
  template <class... A>
  void place(std::uint64_t e, Birth birth, A&&... args) {
    if (birth.rank == rt_.rank()) {
      create(e, birth.version, std::forward<A>(args)...);
    } else {
      using Wire = detail::InsertWire<std::decay_t<A>...>;
      tessera::detail::hooks(rt_).send_to<&Wire::layout, &Collection::on_insert<std::decay_t<A>...>>(
          birth.rank, id_, 0, detail::InsertHeader{e, birth.version, birth.rank, 0}, std::forward<A>(args)...);
    }
    if (membership_.held() > 0) release_held(e);
  }
  template <class... A>
  void create(std::uint64_t e, std::uint64_t version, A&&... args) {
    const Index<N> idx = delinearize(e, bounds_);
    if (rt_.tracer() != nullptr) [[unlikely]]
      rt_.tracer()->begin("insert");
    // Construction is charged to the rank, as for the elements a collection is created with.
    std::unique_ptr<T> element;
    if constexpr (std::is_constructible_v<T, const Index<N>&, A&...>) element = std::make_unique<T>(idx, args...);
    else element = std::make_unique<T>(args...);
    adopt(e, std::move(element), version, broadcasts_.marks_now());
    membership_.count_insert();
    if (rt_.tracer() != nullptr) [[unlikely]]
      rt_.tracer()->end();
  }
  template <class... Ps>
  static void on_insert(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
    Collection& c = self(rt, envelope);
    serial::Reader reader(payload, &rt);
    const auto header = serial::decode<detail::InsertHeader>(reader);
    auto arguments = tessera::detail::Decoder<std::tuple<Ps...>>::decode(payload.subspan(sizeof header), rt);
    if (header.version != detail::kUndecided) {
      std::apply([&](auto&&... a) { c.create(header.element, header.version, std::move(a)...); }, std::move(arguments));
      return;
    }
    const auto birth = c.admit(header.element, header.rank);
    if (!birth) return c.membership_.hold(header.element, &Collection::on_insert<Ps...>, envelope, payload);
    std::apply([&](auto&&... a) { c.place(header.element, *birth, std::move(a)...); }, std::move(arguments));
  }

  static void on_destroy(Runtime& rt, const Envelope& envelope, std::span<const std::byte> payload) {
    Collection& c = self(rt, envelope);
    serial::Reader reader(payload, &rt);
    auto header = serial::decode<detail::ElementHeader>(reader);
    if (c.elements_.contains(header.element)) return c.destroy_local(header.element);
    const int dest = c.absent(header.element);
    if (dest == rt.rank()) return c.membership_.hold(header.element, &Collection::on_destroy, envelope, payload);
    header.hops += 1;
    tessera::detail::hooks(rt).send_to<&detail::DestroyWire::layout, &Collection::on_destroy>(dest, c.id_, 0, header);
  }
  void destroy_local(std::uint64_t e) {
    auto it = elements_.find(e);
    if (rt_.tracer() != nullptr) [[unlikely]]
      rt_.tracer()->begin("destroy");
    if constexpr (requires(T& t) { t.on_destroy(); }) {
      PhaseManager::Scope scope(phases_, ElementKey{id_, e});
      it->second.element->on_destroy();
    }
    const std::uint64_t version = it->second.element->migrations_ + 1;
    elements_.erase(it);
    locations_.learn(e, LocationTable::kDestroyed, version);
    membership_.count_destroy();
    const int home = home_of(e);
    // Before anything this rank forwards to the home from now on (location.hpp). Counted, unlike
    // the other location facts: it may release messages held at the home, which then run in
    // its epoch (membership.hpp), and that epoch must not end before they have run.
    if (home != rt_.rank())
      tessera::detail::hooks(rt_).send_to<&detail::LocationWire::layout, &Collection::on_location>(
          home, id_, 0, e, static_cast<std::int32_t>(LocationTable::kDestroyed), version);
    else if (membership_.held() > 0)
      release_held(e);
    if (rt_.tracer() != nullptr) [[unlikely]]
      rt_.tracer()->end();
  }

  Runtime& rt_;
  PhaseManager& phases_;
  std::uint64_t id_;
  std::uint64_t ordinal_;
  Index<N> bounds_;
  Mapper<N> mapper_;
  LocationTable locations_;
  std::unordered_map<std::uint64_t, Local> elements_;
  BroadcastLog<Replay> broadcasts_;
  bool dynamic_ = false;
  Membership membership_;
  struct RescaleFact {
    std::uint64_t element;
    int rank;
    std::uint64_t version;
  };
  std::vector<RescaleFact> rescale_facts_;
  bool destroyed_ = false;
};

}  // namespace tessera::collections
