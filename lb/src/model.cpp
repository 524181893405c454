#include "tessera/lb/model.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace tessera::lb {

std::string to_string(const ObjectId& id) {
  if (id.is_seq) return "seq=" + std::to_string(id.value) + "@" + std::to_string(id.collection);
  return "id=" + std::to_string(id.value);
}

std::size_t ObjectIdHash::operator()(const ObjectId& id) const noexcept {
  const std::size_t a = std::hash<std::uint64_t>{}(id.value);
  const std::size_t b = std::hash<std::int64_t>{}(id.collection) ^ (id.is_seq ? 0x9e3779b97f4a7c15ULL : 0);
  return a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
}

double Phase::load() const {
  double sum = 0.0;
  for (const auto& task : tasks) sum += task.time;
  return sum;
}

const Phase* RankData::find_phase(PhaseId id) const {
  for (const auto& phase : phases) {
    if (phase.id == id) return &phase;
  }
  return nullptr;
}

std::vector<PhaseId> LbData::phase_ids() const {
  std::vector<PhaseId> ids;
  for (const auto& rank : ranks) {
    if (rank.phases.empty()) continue;  // a rank that recorded nothing
    for (const auto& phase : rank.phases) ids.push_back(phase.id);
    break;
  }
  return ids;
}

std::vector<double> LbData::rank_loads(PhaseId id) const {
  std::vector<double> loads;
  loads.reserve(ranks.size());
  for (const auto& rank : ranks) {
    const Phase* phase = rank.find_phase(id);
    loads.push_back(phase ? phase->load() : 0.0);
  }
  return loads;
}

double StrategyInput::load() const {
  double sum = 0.0;
  for (const auto& object : objects) sum += object.load;
  return sum;
}

StrategyInput strategy_input(const RankData& data, PhaseId phase_id) {
  const Phase* phase = data.find_phase(phase_id);
  if (!phase) {
    throw std::out_of_range("rank " + std::to_string(data.rank) + " has no phase " +
                            std::to_string(phase_id));
  }
  StrategyInput input;
  input.rank = data.rank;
  input.objects.reserve(phase->tasks.size());
  for (const auto& task : phase->tasks) {
    input.objects.push_back(
        LbObject{task.entity.id, task.time, task.entity.migratable.value_or(true)});
  }
  for (const auto& edge : phase->communications) {
    if (edge.type != "SendRecv") continue;
    input.edges.push_back(LbEdge{edge.from.id, edge.to.id, edge.messages, edge.bytes});
  }
  return input;
}

void Plan::canonicalize() { std::sort(migrations.begin(), migrations.end()); }

}  // namespace tessera::lb
