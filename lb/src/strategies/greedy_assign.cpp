#include "greedy_assign.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>

namespace tessera::lb::detail {

std::vector<Assignment> assign_largest_to_least(std::vector<Descriptor>& pool, std::vector<Bin>& bins,
                                                double limit) {
  // Sorting the pool once equals repeatedly popping a max-heap, and leaves the rest ordered.
  std::sort(pool.begin(), pool.end(), [](const Descriptor& a, const Descriptor& b) {
    return std::tie(b.load, a.id) < std::tie(a.load, b.id);
  });
  const auto later = [&](std::size_t a, std::size_t b) {
    return std::make_tuple(bins[a].average(), bins[a].rank) > std::make_tuple(bins[b].average(), bins[b].rank);
  };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> least(later);
  for (std::size_t i = 0; i < bins.size(); ++i) least.push(i);

  std::vector<Assignment> assigned;
  std::vector<Descriptor> skipped;
  std::size_t next = 0;
  std::vector<std::size_t> full;  // bins popped for want of headroom, pushed back after each task
  while (next < pool.size() && !least.empty() && bins[least.top()].average() < limit) {
    const Descriptor& task = pool[next++];
    while (!least.empty() && bins[least.top()].average() < limit && !(bins[least.top()].headroom >= task.memory)) {
      full.push_back(least.top());
      least.pop();
    }
    if (least.empty() || !(bins[least.top()].average() < limit)) {
      skipped.push_back(task);  // no bin under the limit has room for it
    } else {
      const std::size_t bin = least.top();
      least.pop();
      bins[bin].load += task.load;
      bins[bin].headroom -= task.memory;
      assigned.push_back(Assignment{task, bin});
      least.push(bin);
    }
    for (std::size_t bin : full) least.push(bin);
    full.clear();
  }
  pool.erase(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(next));
  pool.insert(pool.begin(), skipped.begin(), skipped.end());  // still largest first
  return assigned;
}

std::vector<Descriptor> shed_smallest(const std::vector<LbObject>& objects, Rank rank, double& load,
                                      double threshold) {
  std::vector<const LbObject*> movable;
  for (const auto& object : objects) {
    if (object.migratable) movable.push_back(&object);
  }
  std::sort(movable.begin(), movable.end(), [](const LbObject* a, const LbObject* b) {
    return std::tie(a->load, a->id) < std::tie(b->load, b->id);
  });
  std::vector<Descriptor> shed;
  for (const LbObject* object : movable) {
    if (!(load > threshold)) break;
    const ObjectMemory& m = object->memory;
    shed.push_back(Descriptor{object->id, object->load, rank,
                              m.footprint_bytes + m.working_bytes + (m.shared_id >= 0 ? m.shared_bytes : 0.0)});
    load -= object->load;
  }
  return shed;
}

double rank_headroom(const WorkModel& model, const StrategyInput& input) {
  const double limit = model.limit_of(input);
  return std::isinf(limit) ? limit : limit - rank_memory(input);
}

}  // namespace tessera::lb::detail
