#include "tessera/lb/strategy.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>

namespace tessera::lb {

Rank staying_ranks(const comm::Backend& backend, std::span<const StrategyInput> hosted) {
  return hosted.empty() || hosted.front().staying <= 0 ? backend.size() : static_cast<Rank>(hosted.front().staying);
}

void check_hosted_inputs(const comm::Backend& backend, std::span<const StrategyInput> hosted) {
  const auto ranks = backend.local_ranks();
  if (hosted.size() != ranks.size()) {
    throw std::invalid_argument("strategy input: " + std::to_string(hosted.size()) +
                                " rank inputs for " + std::to_string(ranks.size()) + " hosted ranks");
  }
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (hosted[i].rank != ranks[i]) {
      throw std::invalid_argument("strategy input " + std::to_string(i) + " is for rank " +
                                  std::to_string(hosted[i].rank) + " but hosted rank " +
                                  std::to_string(ranks[i]) + " was expected");
    }
  }
}

std::vector<StrategyInput> apply_plan(std::span<const StrategyInput> ranks, const Plan& plan) {
  std::vector<StrategyInput> out(ranks.begin(), ranks.end());
  std::unordered_map<ObjectId, Rank, ObjectIdHash> moving;
  for (const auto& m : plan.migrations) moving[m.object] = m.to;
  std::vector<std::vector<LbObject>> arriving(ranks.size());
  for (auto& rank : out) {
    std::vector<LbObject> staying;
    for (const auto& object : rank.objects) {
      const auto it = moving.find(object.id);
      if (it == moving.end()) {
        staying.push_back(object);
        continue;
      }
      if (it->second < 0 || static_cast<std::size_t>(it->second) >= ranks.size()) {
        throw std::invalid_argument("plan moves " + to_string(object.id) + " to rank " +
                                    std::to_string(it->second) + ", outside [0, " +
                                    std::to_string(ranks.size()) + ")");
      }
      arriving[static_cast<std::size_t>(it->second)].push_back(object);
      moving.erase(it);
    }
    rank.objects = std::move(staying);
  }
  if (!moving.empty()) {
    throw std::invalid_argument("plan moves " + to_string(moving.begin()->first) +
                                ", which no rank holds");
  }
  for (std::size_t r = 0; r < out.size(); ++r) {
    out[r].objects.insert(out[r].objects.end(), arriving[r].begin(), arriving[r].end());
  }
  return out;
}

std::vector<double> rank_loads(std::span<const StrategyInput> ranks) {
  std::vector<double> loads;
  loads.reserve(ranks.size());
  for (const auto& rank : ranks) loads.push_back(rank.load());
  return loads;
}

}  // namespace tessera::lb
