#include <tessera/collections/phase.hpp>
#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/timer.hpp>

#include <algorithm>

namespace tessera::collections {

namespace {
// Reserved runtime target id under which a runtime's PhaseManager is registered. Collective ids
// count up from 1, so they never reach this value.
constexpr std::uint64_t kPhaseManagerTarget = 0xC0'11EC'7100'0000'01ull;
}  // namespace

PhaseManager::PhaseManager(Runtime& rt, LoadClock clock) : rt_(rt), clock_(clock) {
  rt_.account_idle(clock_ == LoadClock::wall, clock_ == LoadClock::cpu);
  phase_start_ = now();
  idle_start_ = idle_now();
}

double PhaseManager::idle_now() const {
  return clock_ == LoadClock::cpu ? rt_.idle_cpu_seconds() : rt_.idle_seconds();
}

PhaseManager& PhaseManager::of(Runtime& rt) {
  if (void* found = rt.find_target(kPhaseManagerTarget)) return *static_cast<PhaseManager*>(found);
  return install(rt, LoadClock::wall);
}

PhaseManager& PhaseManager::install(Runtime& rt, LoadClock clock) {
  if (rt.find_target(kPhaseManagerTarget) != nullptr)
    fatal("the phase manager of this runtime exists already: choose the load clock before "
          "creating any collection");
  auto manager = std::make_shared<PhaseManager>(rt, clock);
  rt.register_target(kPhaseManagerTarget, manager.get());
  PhaseManager& result = *manager;
  rt.adopt(std::move(manager));
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

PhaseManager::Scope::Scope(PhaseManager& manager, ElementKey element)
    : manager_(manager), previous_(manager.current_), start_(manager.now()) {
  manager_.current_ = element;
}

PhaseManager::Scope::~Scope() {
  manager_.charge(manager_.current_, manager_.now() - start_);
  manager_.current_ = previous_;
}

void PhaseManager::charge(ElementKey element, double seconds) {
  Load& load = loads_[element];
  load.total += seconds;
  const auto slot = static_cast<std::size_t>(subphase_);
  if (load.subphases.size() <= slot) load.subphases.resize(slot + 1, 0.0);
  load.subphases[slot] += seconds;
}

void PhaseManager::record_edge(ElementKey from, ElementKey to, std::size_t bytes) {
  Traffic& traffic = edges_[{from, to}];
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
  // drain() returns on each rank as soon as it sees quiescence, so a fast rank could start the
  // next phase (and migrate elements here) before this rank has closed: nobody leaves before
  // every rank has taken its snapshot.
  rt_.collectives().barrier();
  ++phase_;
  subphase_ = 0;
  subphases_marked_ = false;
  phase_start_ = now();
  idle_start_ = idle_now();
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
  double element_time = 0.0;
  for (auto& [key, load] : loads_) {
    if (key.is_rank() || find(key.collection) == nullptr) continue;
    ElementRecord& entry = elements[key];
    entry.key = key;
    entry.load = load.total;
    if (subphases_marked_) entry.subphase_loads = load.subphases;
    element_time += load.total;
  }
  for (auto& [key, entry] : elements) {
    CollectionBase* collection = find(key.collection);
    entry.index = collection->index_of(key.element);
    entry.home = collection->home_of(key.element);
    record.elements.push_back(std::move(entry));
  }
  for (auto& [pair, traffic] : edges_)
    record.edges.push_back(EdgeRecord{pair.first, pair.second, traffic.messages, traffic.bytes});
  // Time spent waiting for messages (in a collective, or for the slowest rank) is no one's load:
  // charging it to the rank would make idle ranks look as busy as the loaded one.
  const double idle = idle_now() - idle_start_;
  record.rank_load = std::max(0.0, now() - phase_start_ - element_time - idle);
  loads_.clear();
  edges_.clear();
  return record;
}

}  // namespace tessera::collections
