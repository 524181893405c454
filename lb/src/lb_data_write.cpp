// LBDatafile writer: the inverse of lb_data_read.cpp, field for field, so that a file read and
// written back reads as the same model.

#include <fstream>

#include <nlohmann/json.hpp>

#include "brotli_codec.hpp"
#include "tessera/lb/lb_data_io.hpp"

namespace tessera::lb {

namespace {

using nlohmann::json;

json entity_json(const Entity& e) {
  json j = json::object();
  j["type"] = "object";
  if (e.id.is_seq) {
    j["seq_id"] = e.id.value;
  } else {
    j["id"] = e.id.value;
  }
  if (e.home) j["home"] = *e.home;
  if (e.migratable) j["migratable"] = *e.migratable;
  if (e.collection_id) j["collection_id"] = *e.collection_id;
  if (e.objgroup_id) j["objgroup_id"] = *e.objgroup_id;
  if (!e.index.empty()) j["index"] = e.index;
  return j;
}

json task_json(const Task& t) {
  json j = json::object();
  j["entity"] = entity_json(t.entity);
  j["node"] = t.node;
  j["resource"] = t.resource;
  j["time"] = t.time;
  if (!t.subphases.empty()) {
    json subphases = json::array();
    for (const auto& s : t.subphases) subphases.push_back({{"id", s.id}, {"time", s.time}});
    j["subphases"] = std::move(subphases);
  }
  if (!t.user_defined.empty()) j["user_defined"] = json::parse(t.user_defined);
  if (!t.attributes.empty()) j["attributes"] = json::parse(t.attributes);
  return j;
}

json edge_json(const Edge& e) {
  return json{{"type", e.type},         {"from", entity_json(e.from)}, {"to", entity_json(e.to)},
              {"messages", e.messages}, {"bytes", e.bytes}};
}

}  // namespace

std::string to_lb_json(const RankData& data, int indent) {
  json metadata = data.metadata_extra.empty() ? json::object() : json::parse(data.metadata_extra);
  metadata["type"] = "LBDatafile";
  metadata["rank"] = data.rank;
  if (const auto& n = data.shared_node) {
    metadata["shared_node"] = {{"id", n->id}, {"size", n->size}, {"rank", n->rank}, {"num_nodes", n->num_nodes}};
  }
  json phases = json::array();
  for (const auto& phase : data.phases) {
    json tasks = json::array();
    for (const auto& task : phase.tasks) tasks.push_back(task_json(task));
    json p = {{"id", phase.id}, {"tasks", std::move(tasks)}};
    if (!phase.communications.empty()) {
      json communications = json::array();
      for (const auto& edge : phase.communications) communications.push_back(edge_json(edge));
      p["communications"] = std::move(communications);
    }
    phases.push_back(std::move(p));
  }
  const json root = {{"type", "LBDatafile"}, {"metadata", std::move(metadata)}, {"phases", std::move(phases)}};
  return root.dump(indent);
}

void write_lb_data(const LbData& data, const std::filesystem::path& stem, const WriteOptions& options) {
  const std::filesystem::path dir = stem.has_parent_path() ? stem.parent_path() : ".";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw DataError(dir.string() + ": cannot create directory: " + ec.message());
  for (const auto& rank : data.ranks) {
    const std::filesystem::path file =
        dir / (stem.filename().string() + "." + std::to_string(rank.rank) + ".json");
    std::string text = to_lb_json(rank, options.indent);
    if (options.compress) text = detail::brotli_compress(text);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw DataError(file.string() + ": cannot write");
  }
}

}  // namespace tessera::lb
