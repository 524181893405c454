#include <tessera/collections/phase.hpp>
#include <tessera/runtime/hooks.hpp>
#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/timer.hpp>

#include <algorithm>
#include <cstring>

namespace tessera::collections {

// Element handlers are timed twice each, so their clock matters on the message path. For
// wall-clock loads with an invariant TSC (timer.hpp) they read the TSC, half the cost of
// clock_gettime on this project's VM; the ticks become seconds when the phase closes, by the
// ratio of wall time to ticks over the phase itself, so nothing is calibrated up front.
// Elsewhere they read the load clock itself.
PhaseManager::PhaseManager(Runtime& rt, LoadClock clock)
    : rt_(rt), clock_(clock), tsc_(clock == LoadClock::wall && invariant_tsc()) {
  tessera::detail::hooks(rt_).account_idle(clock_ == LoadClock::wall, clock_ == LoadClock::cpu);
  phase_start_ = now();
  phase_start_ticks_ = ticks();
  idle_start_ = idle_now();
  tessera::detail::hooks(rt_).add_rescale_listener(this);
  if (const std::span<const std::byte> joined = rt_.joined_state("phases"); joined.size() == sizeof phase_)
    std::memcpy(&phase_, joined.data(), sizeof phase_);
}

void PhaseManager::join_state(JoinState& state) const {
  const auto* raw = reinterpret_cast<const std::byte*>(&phase_);
  state["phases"].assign(raw, raw + sizeof phase_);
}

PhaseManager::~PhaseManager() { tessera::detail::hooks(rt_).remove_rescale_listener(this); }

void PhaseManager::before_cut(const RankChange& change) {
  for (const auto& [id, collection] : collections_) collection->before_cut(change);
}

void PhaseManager::after_cut(const RankChange& change) {
  for (const auto& [id, collection] : collections_) collection->after_cut(change);
}

double PhaseManager::seconds_per_tick() const {
  if (!tsc_) return 1.0;
  const double ticks_elapsed = ticks() - phase_start_ticks_;
  return ticks_elapsed > 0 ? (now() - phase_start_) / ticks_elapsed : 0.0;
}

double PhaseManager::idle_now() const {
  return clock_ == LoadClock::cpu ? rt_.idle_cpu_seconds() : rt_.idle_seconds();
}

PhaseManager& PhaseManager::of(Runtime& rt) {
  if (PhaseManager* found = tessera::detail::hooks(rt).service<PhaseManager>()) return *found;
  fatal("this runtime has no phase manager: create collections through a tessera::Context (or, on a bare "
        "Runtime, call PhaseManager::install first)");
}

PhaseManager& PhaseManager::install(Runtime& rt, LoadClock clock) {
  if (tessera::detail::hooks(rt).service<PhaseManager>() != nullptr)
    fatal("the phase manager of this runtime exists already: install it once, before creating any collection");
  auto manager = std::make_unique<PhaseManager>(rt, clock);
  tessera::detail::hooks(rt).set_service(manager.get());
  PhaseManager& result = *manager;
  // The runtime owns it: collections, which the runtime also keeps alive, refer to it until the end.
  tessera::detail::hooks(rt).adopt(std::move(manager));
  return result;
}

double PhaseManager::now() const {
  return clock_ == LoadClock::cpu ? thread_cpu_time() : wall_time();
}

void PhaseManager::set_subphase(int id) {
  if (id < 0) fatal("subphase {} is negative: expected an id >= 0", id);
  subphase_ = id;
  subphases_marked_ = true;
}

void PhaseManager::trace_begin(ElementKey element) { rt_.tracer()->begin_element(element.collection, element.element); }

void PhaseManager::trace_end() { rt_.tracer()->end(); }

void PhaseManager::charge(ElementKey element, double ticks) {
  if (last_load_ == nullptr || last_charged_ != element) {
    last_load_ = &loads_[element];
    last_charged_ = element;
  }
  Load& load = *last_load_;
  load.total += ticks;
  const auto slot = static_cast<std::size_t>(subphase_);
  if (load.subphases.size() <= slot) load.subphases.resize(slot + 1, 0.0);
  load.subphases[slot] += ticks;
}

void PhaseManager::record_edge(ElementKey from, ElementKey to, std::size_t bytes) {
  if (last_traffic_ == nullptr || last_edge_ != std::pair(from, to)) {
    last_traffic_ = &edges_[{from, to}];
    last_edge_ = {from, to};
  }
  Traffic& traffic = *last_traffic_;
  traffic.messages += 1;
  traffic.bytes += static_cast<double>(bytes);
}

void PhaseManager::attach(CollectionBase* collection) { collections_[collection->id()] = collection; }

void PhaseManager::detach(std::uint64_t collection) { collections_.erase(collection); }

CollectionBase* PhaseManager::find(std::uint64_t collection) const {
  auto it = collections_.find(collection);
  return it == collections_.end() ? nullptr : it->second;
}

bool PhaseManager::migrate(ElementKey element, int dest) {
  CollectionBase* collection = find(element.collection);
  return collection != nullptr && collection->migrate(element.element, dest);
}

PhaseRecord PhaseManager::end_phase() {
  rt_.drain();
  for (auto& [id, collection] : collections_) collection->quiescent();
  PhaseRecord record = close();
  // The next phase starts at the snapshot, before the barrier: a rank that leaves the barrier
  // first may already send work here (its next phase), and what this rank runs while it waits
  // must be measured against the next phase's clock, or its elements' loads could exceed the
  // phase's wall time (and the rank's own load come out as zero).
  ++phase_;
  subphase_ = 0;
  subphases_marked_ = false;
  phase_start_ = now();
  phase_start_ticks_ = ticks();
  idle_start_ = idle_now();
  // drain() returns on each rank as soon as it sees quiescence, so a fast rank could start the
  // next phase (and migrate elements here) before this rank has closed: nobody leaves before
  // every rank has taken its snapshot.
  rt_.collectives().barrier();
  return record;
}

PhaseRecord PhaseManager::close() {
  PhaseRecord record;
  record.phase = phase_;
  record.rank = rt_.rank();
  // Every element here now, plus those that ran here and left during the phase.
  std::map<ElementKey, ElementRecord> elements;
  for (auto& [id, collection] : collections_) {
    for (std::uint64_t element : collection->local_elements()) elements[{id, element}].key = {id, element};
  }
  const double scale = seconds_per_tick();
  double element_time = 0.0;
  for (auto& [key, load] : loads_) {
    if (key.is_rank() || find(key.collection) == nullptr) continue;
    const auto [it, departed] = elements.try_emplace(key);
    ElementRecord& entry = it->second;
    entry.key = key;
    entry.local = !departed;
    entry.load = load.total * scale;
    if (subphases_marked_) {
      entry.subphase_loads = load.subphases;
      for (double& seconds : entry.subphase_loads) seconds *= scale;
    }
    element_time += entry.load;
  }
  for (auto& [id, collection] : collections_) record.membership += collection->take_membership_counts();
  for (auto& [key, entry] : elements) {
    CollectionBase* collection = find(key.collection);
    entry.index = collection->index_of(key.element);
    entry.home = collection->home_of(key.element);
    if (entry.local) entry.footprint_bytes = collection->footprint_of(key.element);
    record.elements.push_back(std::move(entry));
  }
  for (auto& [pair, traffic] : edges_)
    record.edges.push_back(EdgeRecord{pair.first, pair.second, traffic.messages, traffic.bytes});
  std::sort(record.edges.begin(), record.edges.end(), [](const EdgeRecord& a, const EdgeRecord& b) {
    return std::pair(a.from, a.to) < std::pair(b.from, b.to);
  });
  // Time spent waiting for messages (in a collective, or for the slowest rank) is no one's load:
  // charging it to the rank would make idle ranks look as busy as the loaded one.
  const double idle = idle_now() - idle_start_;
  record.rank_load = std::max(0.0, now() - phase_start_ - element_time - idle);
  loads_.clear();
  edges_.clear();
  last_load_ = nullptr;
  last_traffic_ = nullptr;
  return record;
}

}  // namespace tessera::collections
