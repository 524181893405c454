#include "tessera/lb/model.hpp"

#include <tessera/runtime/error.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

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

bool NodeMap::grouped() const {
  std::vector<std::int32_t> sorted(node);
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

NodeMap NodeMap::blocks(Rank ranks, Rank ranks_per_node) {
  if (ranks < 1 || ranks_per_node < 1) {
    throw Error("node map: expected ranks >= 1 and ranks per node >= 1, got " + std::to_string(ranks) +
                                " and " + std::to_string(ranks_per_node));
  }
  NodeMap map;
  map.node.resize(static_cast<std::size_t>(ranks));
  for (Rank r = 0; r < ranks; ++r) map.node[static_cast<std::size_t>(r)] = r / ranks_per_node;
  return map;
}

std::vector<SharedNode> NodeMap::shared_nodes() const {
  std::map<std::int32_t, std::int64_t> sizes;
  for (const std::int32_t n : node) ++sizes[n];
  std::map<std::int32_t, std::int64_t> seen;
  std::vector<SharedNode> out;
  out.reserve(node.size());
  for (const std::int32_t n : node) {
    out.push_back(SharedNode{n, sizes[n], seen[n]++, static_cast<std::int64_t>(sizes.size())});
  }
  return out;
}

NodeMap LbData::node_map() const {
  NodeMap map;
  if (ranks.empty() || !ranks.front().shared_node) return map;
  map.node.reserve(ranks.size());
  for (const auto& rank : ranks) map.node.push_back(static_cast<std::int32_t>(rank.shared_node.value_or(SharedNode{}).id));
  return map;
}

double StrategyInput::load() const {
  double sum = 0.0;
  for (const auto& object : objects) sum += object.load;
  return sum;
}

namespace {

// A non-negative number field of a user_defined object, or `fallback` when absent.
double bytes_field(const nlohmann::json& fields, const char* key, double fallback, const ObjectId& id) {
  const auto it = fields.find(key);
  if (it == fields.end()) return fallback;
  if (!it->is_number() || it->get<double>() < 0.0) {
    throw Error("object " + to_string(id) + ": user_defined." + key +
                                " must be a number >= 0, got " + it->dump());
  }
  return it->get<double>();
}

// Fills the memory fields of `object` (and the rank's working bytes) from the task's
// user_defined JSON text, as LBAF reads them.
void read_memory(const std::string& user_defined, LbObject& object, StrategyInput& input) {
  if (user_defined.empty()) return;
  const auto fields = nlohmann::json::parse(user_defined, nullptr, false);
  if (!fields.is_object()) return;
  ObjectMemory& memory = object.memory;
  memory.footprint_bytes = bytes_field(fields, "task_footprint_bytes", 0.0, object.id);
  memory.working_bytes = bytes_field(fields, "task_working_bytes", 0.0, object.id);
  memory.shared_bytes = bytes_field(fields, "shared_bytes", 0.0, object.id);
  if (const auto it = fields.find("shared_id"); it != fields.end() && it->is_number_integer()) {
    memory.shared_id = it->get<std::int64_t>();
  }
  // LBAF takes the rank's working memory from its tasks (every task of a rank carries it).
  input.working_bytes = bytes_field(fields, "rank_working_bytes", input.working_bytes, object.id);
}

std::optional<double> metadata_number(const std::string& extra, const char* key, Rank rank) {
  if (extra.empty()) return std::nullopt;
  const auto metadata = nlohmann::json::parse(extra, nullptr, false);
  if (!metadata.is_object()) return std::nullopt;
  const auto it = metadata.find(key);
  if (it == metadata.end()) return std::nullopt;
  if (!it->is_number() || it->get<double>() < 0.0) {
    throw Error("rank " + std::to_string(rank) + ": metadata." + key +
                                " must be a number >= 0, got " + it->dump());
  }
  return it->get<double>();
}

}  // namespace

StrategyInput strategy_input(const RankData& data, PhaseId phase_id) {
  const Phase* phase = data.find_phase(phase_id);
  if (!phase) {
    throw std::out_of_range("rank " + std::to_string(data.rank) + " has no phase " +
                            std::to_string(phase_id));
  }
  StrategyInput input;
  input.rank = data.rank;
  input.rank_alpha = metadata_number(data.metadata_extra, "rank_alpha", data.rank);
  input.memory_limit = metadata_number(data.metadata_extra, "memory_limit", data.rank);
  input.objects.reserve(phase->tasks.size());
  for (const auto& task : phase->tasks) {
    input.objects.push_back(
        LbObject{task.entity.id, task.time, task.entity.migratable.value_or(true), {}});
    read_memory(task.user_defined, input.objects.back(), input);
  }
  for (const auto& edge : phase->communications) {
    if (edge.type != "SendRecv") continue;
    input.edges.push_back(LbEdge{edge.from.id, edge.to.id, edge.messages, edge.bytes});
  }
  return input;
}

void Plan::canonicalize() { std::sort(migrations.begin(), migrations.end()); }

}  // namespace tessera::lb
