#include <tessera/lb/reshape.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace tessera::lb {

ReshapeThresholds reshape_thresholds(const ReshapeOptions& options, double total_load, int ranks,
                                     double migratable_load, std::int64_t migratable_objects) {
  ReshapeThresholds t;
  if (options.split_above > 0.0 && ranks > 0) t.split_load = options.split_above * total_load / ranks;
  if (options.merge_below > 0.0 && migratable_objects > 0)
    t.merge_load = options.merge_below * migratable_load / static_cast<double>(migratable_objects);
  return t;
}

int split_depth(double load, double split_load) {
  int depth = 0;
  while (depth < kMaxSplitDepth && load > split_load) {
    load /= 2.0;
    ++depth;
  }
  return depth;
}

namespace {

// The ids an object became: itself, its pieces, or the object it merged into.
using Renames = std::unordered_map<ObjectId, std::vector<ObjectId>, ObjectIdHash>;

std::vector<LbEdge> rewrite_edges(const std::vector<LbEdge>& edges, const Renames& renames) {
  std::vector<LbEdge> out;
  out.reserve(edges.size());
  const auto ends = [&](const ObjectId& id) {
    auto it = renames.find(id);
    return it == renames.end() ? std::vector<ObjectId>{id} : it->second;
  };
  for (const LbEdge& e : edges) {
    const std::vector<ObjectId> from = ends(e.from), to = ends(e.to);
    const auto share = static_cast<std::int64_t>(from.size() * to.size());
    for (const ObjectId& f : from)
      for (const ObjectId& t : to) {
        if (f == t && !(e.from == e.to)) continue;  // now inside one merged object
        out.push_back(LbEdge{f, t, std::max<std::int64_t>(1, e.messages / share), e.bytes / static_cast<double>(share)});
      }
  }
  return out;
}

}  // namespace

ReshapeCounts reshape(std::vector<StrategyInput>& ranks, const ReshapeOptions& options) {
  ReshapeCounts counts;
  if (!options.enabled()) return counts;
  double total = 0.0, migratable = 0.0;
  std::int64_t movable = 0;
  std::uint64_t next_value = 0;
  for (const StrategyInput& r : ranks)
    for (const LbObject& o : r.objects) {
      total += o.load;
      if (o.migratable) migratable += o.load, ++movable;
      next_value = std::max(next_value, o.id.value + 1);
    }
  const ReshapeThresholds t =
      reshape_thresholds(options, total, static_cast<int>(ranks.size()), migratable, movable);
  Renames renames;
  std::unordered_map<ObjectId, ObjectId, ObjectIdHash> parent_of;  // of each piece
  for (StrategyInput& r : ranks) {
    std::vector<LbObject> kept;
    kept.reserve(r.objects.size());
    for (const LbObject& o : r.objects) {
      const int depth = o.migratable ? split_depth(o.load, t.split_load) : 0;
      if (depth == 0) {
        kept.push_back(o);
        continue;
      }
      const std::int64_t pieces = std::int64_t{1} << depth;
      std::vector<ObjectId>& became = renames[o.id];
      for (std::int64_t k = 0; k < pieces; ++k) {
        LbObject piece = o;
        piece.id.value = next_value++;
        piece.load = o.load / static_cast<double>(pieces);
        piece.memory.footprint_bytes = o.memory.footprint_bytes / static_cast<double>(pieces);
        became.push_back(piece.id);
        parent_of.emplace(piece.id, o.id);
        kept.push_back(piece);
      }
      counts.splits += 1;
      counts.pieces += pieces;
    }
    // Merge light pairs by ascending id; the pieces just made are heavier than M unless the
    // thresholds overlap, and then they may merge too, as any light object.
    std::vector<std::size_t> light;
    for (std::size_t i = 0; i < kept.size(); ++i)
      if (kept[i].migratable && kept[i].load < t.merge_load) light.push_back(i);
    std::sort(light.begin(), light.end(), [&](std::size_t a, std::size_t b) { return kept[a].id < kept[b].id; });
    std::vector<bool> gone(kept.size(), false);
    for (std::size_t k = 0; k + 1 < light.size(); k += 2) {
      LbObject& first = kept[light[k]];
      const LbObject& second = kept[light[k + 1]];
      first.load += second.load;
      first.memory.footprint_bytes += second.memory.footprint_bytes;
      gone[light[k + 1]] = true;
      // A piece merged at once: what its parent became now names the kept object instead.
      if (auto it = parent_of.find(second.id); it != parent_of.end()) {
        std::vector<ObjectId>& became = renames[it->second];
        std::replace(became.begin(), became.end(), second.id, first.id);
        became.erase(std::unique(became.begin(), became.end()), became.end());
      } else {
        renames[second.id] = {first.id};
      }
      counts.merges += 1;
      counts.merged += 2;
    }
    r.objects.clear();
    for (std::size_t i = 0; i < kept.size(); ++i)
      if (!gone[i]) r.objects.push_back(kept[i]);
  }
  if (!renames.empty())
    for (StrategyInput& r : ranks) r.edges = rewrite_edges(r.edges, renames);
  return counts;
}

}  // namespace tessera::lb
