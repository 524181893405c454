#include "reshape_live.hpp"

#include <tessera/runtime/collectives.hpp>

#include <array>
#include <map>
#include <unordered_set>

namespace tessera::lb {

namespace {

// The element an object of the strategy input is, or nullopt (a rank's own load).
std::optional<collections::ElementKey> element_of(const lb::LbObject& object) {
  if (!object.migratable || !object.id.is_seq) return std::nullopt;
  return collections::ElementKey{static_cast<std::uint64_t>(object.id.collection), object.id.value};
}

}  // namespace

lb::ReshapeCounts reshape_live(Runtime& rt, collections::PhaseManager& phases, const lb::ReshapeOptions& options,
                               lb::StrategyInput& input, lb::LoadHistory& history) {
  lb::ReshapeCounts counts;
  std::array<double, 3> sums{0.0, 0.0, 0.0};  // all load, migratable load, migratable objects
  for (const lb::LbObject& o : input.objects) {
    sums[0] += o.load;
    if (o.migratable) sums[1] += o.load, sums[2] += 1.0;
  }
  sums = rt.collectives().allreduce(sums, [](std::array<double, 3> a, const std::array<double, 3>& b) {
    for (std::size_t k = 0; k < a.size(); ++k) a[k] += b[k];
    return a;
  });
  const lb::ReshapeThresholds t =
      lb::reshape_thresholds(options, sums[0], rt.size(), sums[1], static_cast<std::int64_t>(sums[2]));

  std::vector<lb::LbObject> made;
  std::unordered_set<lb::ObjectId, lb::ObjectIdHash> replaced;
  // Merge candidates: (collection, target) -> the light elements naming it, ascending.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<const lb::LbObject*>> groups;
  for (const lb::LbObject& o : input.objects) {
    const auto key = element_of(o);
    if (!key) continue;
    collections::CollectionBase* collection = phases.find(key->collection);
    if (collection == nullptr) continue;
    if (o.load > t.split_load && collection->splits()) {
      const auto pieces = collection->split_local(key->element, o.load, t.split_load, lb::kMaxSplitDepth);
      if (pieces.empty()) continue;
      replaced.insert(o.id);
      for (const auto& [id, load] : pieces)
        made.push_back(lb::LbObject{lb::ObjectId::sequential(id, o.id.collection), load, true, {}});
      counts.splits += 1;
      counts.pieces += static_cast<std::int64_t>(pieces.size());
    } else if (o.load < t.merge_load && collection->merges()) {
      if (const auto into = collection->merge_target(key->element)) groups[{key->collection, *into}].push_back(&o);
    }
  }
  for (auto& [target, members] : groups) {
    if (members.size() < 2) continue;
    std::sort(members.begin(), members.end(), [](const lb::LbObject* a, const lb::LbObject* b) { return a->id < b->id; });
    std::vector<std::uint64_t> ids;
    double load = 0.0;
    for (const lb::LbObject* m : members) ids.push_back(m->id.value), load += m->load;
    if (!phases.find(target.first)->merge_local(target.second, ids)) continue;
    for (const lb::LbObject* m : members) replaced.insert(m->id);
    made.push_back(lb::LbObject{lb::ObjectId::sequential(target.second, static_cast<std::int64_t>(target.first)), load,
                                true, {}});
    counts.merges += 1;
    counts.merged += static_cast<std::int64_t>(members.size());
  }
  // Every rank drains, whether it changed anything or not: the insertions go through homes.
  rt.drain();
  if (replaced.empty()) return counts;
  for (const lb::ObjectId& id : replaced) history.take(id);
  std::erase_if(input.objects, [&](const lb::LbObject& o) { return replaced.contains(o.id); });
  std::erase_if(input.edges,
                [&](const lb::LbEdge& e) { return replaced.contains(e.from) || replaced.contains(e.to); });
  // A merged element may carry the id of one it replaces (its target was one of the group).
  input.objects.insert(input.objects.end(), made.begin(), made.end());
  return counts;
}

}  // namespace tessera::lb
