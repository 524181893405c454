// LBDatafile reader: content sniffing (plain vs brotli), schema checks with located errors, and
// the cross-rank phase agreement check.

#include <algorithm>
#include <fstream>
#include <map>
#include <unordered_map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "brotli_codec.hpp"
#include "tessera/lb/lb_data_io.hpp"

namespace tessera::lb {

namespace {

using nlohmann::json;

// Where a value sits: "<file>: phase <id>: <field path>", built lazily for error messages only.
struct Where {
  const std::string& origin;
  std::optional<PhaseId> phase;
  std::string field;

  [[noreturn]] void fail(const std::string& what) const {
    std::string message = origin + ": ";
    if (phase) message += "phase " + std::to_string(*phase) + ": ";
    if (!field.empty()) message += field + ": ";
    throw DataError(message + what);
  }
  Where at(const std::string& sub) const {
    return Where{origin, phase, field.empty() ? sub : field + "." + sub};
  }
  Where item(std::size_t i) const { return Where{origin, phase, field + "[" + std::to_string(i) + "]"}; }
};

const json& require(const json& object, const char* key, const Where& where) {
  if (!object.is_object()) where.fail("expected a JSON object");
  const auto it = object.find(key);
  if (it == object.end()) where.fail(std::string("missing field '") + key + "'");
  return *it;
}

const json& require_array(const json& object, const char* key, const Where& where) {
  const json& value = require(object, key, where);
  if (!value.is_array()) where.at(key).fail("expected an array");
  return value;
}

double as_number(const json& value, const Where& where) {
  if (!value.is_number()) where.fail("expected a number");
  return value.get<double>();
}

std::int64_t as_integer(const json& value, const Where& where) {
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (d == static_cast<double>(static_cast<std::int64_t>(d))) return static_cast<std::int64_t>(d);
  }
  where.fail("expected an integer");
}

std::uint64_t as_unsigned(const json& value, const Where& where) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  const std::int64_t v = as_integer(value, where);
  if (v < 0) where.fail("expected a non-negative integer");
  return static_cast<std::uint64_t>(v);
}

bool as_bool(const json& value, const Where& where) {
  if (!value.is_boolean()) where.fail("expected true or false");
  return value.get<bool>();
}

Entity parse_entity(const json& j, const Where& where) {
  if (!j.is_object()) where.fail("expected an entity object");
  Entity entity;
  if (const auto it = j.find("type"); it != j.end() && !(it->is_string() && *it == "object")) {
    where.at("type").fail("expected \"object\"");
  }
  if (const auto it = j.find("home"); it != j.end()) {
    entity.home = static_cast<Rank>(as_integer(*it, where.at("home")));
  }
  if (const auto it = j.find("migratable"); it != j.end()) {
    entity.migratable = as_bool(*it, where.at("migratable"));
  }
  if (const auto it = j.find("collection_id"); it != j.end()) {
    entity.collection_id = as_integer(*it, where.at("collection_id"));
  }
  if (const auto it = j.find("objgroup_id"); it != j.end()) {
    entity.objgroup_id = as_integer(*it, where.at("objgroup_id"));
  }
  if (const auto it = j.find("index"); it != j.end()) {
    if (!it->is_array()) where.at("index").fail("expected an array of integers");
    for (std::size_t i = 0; i < it->size(); ++i) {
      entity.index.push_back(as_integer((*it)[i], where.at("index").item(i)));
    }
  }
  const auto id = j.find("id");
  const auto seq = j.find("seq_id");
  if (id != j.end()) {
    entity.id = ObjectId::packed(as_unsigned(*id, where.at("id")));
  } else if (seq != j.end()) {
    // A seq_id is unique only within its collection, hence collection_id is required when the
    // object can move (vt's schema rule); fixed objects fall back to "no collection".
    if (!entity.collection_id && entity.migratable.value_or(true)) {
      where.fail("'seq_id' of a migratable entity requires 'collection_id'");
    }
    entity.id = ObjectId::sequential(as_unsigned(*seq, where.at("seq_id")), entity.collection_id.value_or(-1));
  } else {
    where.fail("missing field 'id' or 'seq_id'");
  }
  return entity;
}

std::string opaque(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? std::string() : it->dump();
}

Task parse_task(const json& j, const Where& where) {
  if (!j.is_object()) where.fail("expected a task object");
  Task task;
  task.entity = parse_entity(require(j, "entity", where), where.at("entity"));
  task.node = static_cast<Rank>(as_integer(require(j, "node", where), where.at("node")));
  task.time = as_number(require(j, "time", where), where.at("time"));
  if (task.time < 0) where.at("time").fail("expected a non-negative number of seconds");
  if (const auto it = j.find("resource"); it != j.end()) {
    if (!it->is_string()) where.at("resource").fail("expected a string");
    task.resource = it->get<std::string>();
  }
  if (const auto it = j.find("subphases"); it != j.end()) {
    if (!it->is_array()) where.at("subphases").fail("expected an array");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const Where w = where.at("subphases").item(i);
      const json& s = (*it)[i];
      task.subphases.push_back(Subphase{as_integer(require(s, "id", w), w.at("id")),
                                        as_number(require(s, "time", w), w.at("time"))});
    }
  }
  task.user_defined = opaque(j, "user_defined");
  task.attributes = opaque(j, "attributes");
  return task;
}

Edge parse_edge(const json& j, const Where& where) {
  if (!j.is_object()) where.fail("expected a communication object");
  Edge edge;
  const json& type = require(j, "type", where);
  if (!type.is_string()) where.at("type").fail("expected a string such as \"SendRecv\"");
  edge.type = type.get<std::string>();
  edge.from = parse_entity(require(j, "from", where), where.at("from"));
  edge.to = parse_entity(require(j, "to", where), where.at("to"));
  edge.messages = as_integer(require(j, "messages", where), where.at("messages"));
  edge.bytes = as_number(require(j, "bytes", where), where.at("bytes"));
  return edge;
}

Phase parse_phase(const json& j, const Where& file, std::size_t position) {
  const Where where = file.at("phases").item(position);
  if (!j.is_object()) where.fail("expected a phase object");
  Phase phase;
  phase.id = as_integer(require(j, "id", where), where.at("id"));
  const Where in_phase{file.origin, phase.id, ""};
  const json& tasks = require_array(j, "tasks", in_phase);
  phase.tasks.reserve(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    phase.tasks.push_back(parse_task(tasks[i], in_phase.at("tasks").item(i)));
  }
  if (const auto it = j.find("communications"); it != j.end()) {
    if (!it->is_array()) in_phase.at("communications").fail("expected an array");
    for (std::size_t i = 0; i < it->size(); ++i) {
      phase.communications.push_back(parse_edge((*it)[i], in_phase.at("communications").item(i)));
    }
  }
  return phase;
}

// metadata.shared_node (vt's LBDatafile schema): four integers, each checked against the others.
SharedNode parse_shared_node(const json& j, const Where& where) {
  if (!j.is_object()) where.fail("expected an object with integer fields id, size, rank, num_nodes");
  SharedNode node;
  node.id = as_integer(require(j, "id", where), where.at("id"));
  node.size = as_integer(require(j, "size", where), where.at("size"));
  node.rank = as_integer(require(j, "rank", where), where.at("rank"));
  node.num_nodes = as_integer(require(j, "num_nodes", where), where.at("num_nodes"));
  if (node.num_nodes < 1) where.at("num_nodes").fail("expected an integer >= 1, got " + std::to_string(node.num_nodes));
  if (node.id < 0 || node.id >= node.num_nodes)
    where.at("id").fail("expected a node id in [0, num_nodes) = [0, " + std::to_string(node.num_nodes) + "), got " +
                        std::to_string(node.id));
  if (node.size < 1) where.at("size").fail("expected an integer >= 1 (ranks on the node), got " + std::to_string(node.size));
  if (node.rank < 0 || node.rank >= node.size)
    where.at("rank").fail("expected the rank's place on its node in [0, size) = [0, " + std::to_string(node.size) +
                          "), got " + std::to_string(node.rank));
  return node;
}

// Across the files: all carry shared_node or none do, they agree on num_nodes, every node id has
// ranks, each node's size is its number of ranks, and no two ranks of a node share a place on it.
void check_shared_nodes(const LbData& data, std::map<Rank, std::filesystem::path>& files) {
  const auto with = std::find_if(data.ranks.begin(), data.ranks.end(), [](const RankData& d) { return d.shared_node.has_value(); });
  if (with == data.ranks.end()) return;
  const auto where = [&](Rank r) { return files[r].string() + ": metadata.shared_node"; };
  const std::int64_t num_nodes = with->shared_node->num_nodes;
  std::map<std::int64_t, std::vector<Rank>> members;
  for (const RankData& rank : data.ranks) {
    if (!rank.shared_node) {
      throw DataError(files[rank.rank].string() + ": metadata.shared_node: missing, but " + files[with->rank].string() +
                      " has one (all ranks or none must say which node they ran on)");
    }
    const SharedNode& n = *rank.shared_node;
    if (n.num_nodes != num_nodes) {
      throw DataError(where(rank.rank) + ".num_nodes: " + std::to_string(n.num_nodes) + " disagrees with " +
                      std::to_string(num_nodes) + " in " + files[with->rank].string());
    }
    members[n.id].push_back(rank.rank);
  }
  for (std::int64_t id = 0; id < num_nodes; ++id) {
    if (!members.contains(id)) {
      throw DataError(where(with->rank) + ".num_nodes: " + std::to_string(num_nodes) + " nodes, but no rank is on node " +
                      std::to_string(id));
    }
  }
  for (const auto& [id, ranks] : members) {
    std::vector<bool> taken(ranks.size(), false);
    for (Rank r : ranks) {
      const SharedNode& n = *data.ranks[static_cast<std::size_t>(r)].shared_node;
      if (n.size != static_cast<std::int64_t>(ranks.size())) {
        throw DataError(where(r) + ".size: " + std::to_string(n.size) + ", but " + std::to_string(ranks.size()) +
                        " rank files name node " + std::to_string(id));
      }
      if (taken[static_cast<std::size_t>(n.rank)]) {
        throw DataError(where(r) + ".rank: " + std::to_string(n.rank) + " is also the place of another rank of node " +
                        std::to_string(id));
      }
      taken[static_cast<std::size_t>(n.rank)] = true;
    }
  }
}

std::string read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw DataError(file.string() + ": cannot open for reading");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

bool looks_like_json(std::string_view bytes) {
  const auto first = bytes.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (bytes[first] == '{' || bytes[first] == '[');
}

}  // namespace

RankData parse_rank_data(std::string_view bytes, Rank rank, const std::string& origin) {
  // A brotli stream may happen to start with '{', so JSON is tried first only when the text looks
  // like JSON, and brotli is the fallback either way; the JSON error is reported if both fail.
  json root;
  std::optional<std::string> json_error;
  if (looks_like_json(bytes)) {
    try {
      root = json::parse(bytes);
    } catch (const json::parse_error& e) {
      json_error = "malformed JSON at byte " + std::to_string(e.byte) + " (truncated file?)";
    }
  }
  if (!looks_like_json(bytes) || json_error) {
    const auto decoded = detail::brotli_decompress(bytes);
    if (!decoded) throw DataError(origin + ": " + json_error.value_or("neither JSON nor a complete brotli stream"));
    try {
      root = json::parse(*decoded);
    } catch (const json::parse_error& e) {
      throw DataError(origin + ": brotli content is malformed JSON at byte " + std::to_string(e.byte));
    }
  }
  const Where where{origin, std::nullopt, ""};
  if (!root.is_object()) where.fail("expected a JSON object at the top level");
  if (const auto it = root.find("type"); it != root.end() && *it != "LBDatafile") {
    where.at("type").fail("expected \"LBDatafile\", got " + it->dump());
  }
  RankData data;
  data.rank = rank;
  if (const auto it = root.find("metadata"); it != root.end()) {
    if (!it->is_object()) where.at("metadata").fail("expected an object");
    if (const auto r = it->find("rank"); r != it->end()) {
      const auto written = as_integer(*r, where.at("metadata.rank"));
      if (written != rank) {
        where.at("metadata.rank").fail("file is for rank " + std::to_string(rank) +
                                       " but metadata says " + std::to_string(written));
      }
    }
    if (const auto n = it->find("shared_node"); n != it->end()) {
      data.shared_node = parse_shared_node(*n, where.at("metadata.shared_node"));
    }
    json extra = *it;
    extra.erase("type");
    extra.erase("rank");
    extra.erase("shared_node");
    if (!extra.empty()) data.metadata_extra = extra.dump();
  }
  const json& phases = require_array(root, "phases", where);
  data.phases.reserve(phases.size());
  for (std::size_t i = 0; i < phases.size(); ++i) data.phases.push_back(parse_phase(phases[i], where, i));
  return data;
}

RankData read_rank_file(const std::filesystem::path& file, Rank rank) {
  return parse_rank_data(read_bytes(file), rank, file.string());
}

LbData read_lb_data(const std::filesystem::path& stem) {
  const std::filesystem::path dir = stem.has_parent_path() ? stem.parent_path() : ".";
  const std::string prefix = stem.filename().string();
  if (!std::filesystem::is_directory(dir)) {
    throw DataError(stem.string() + ": directory " + dir.string() + " does not exist");
  }
  // STEM.<rank>.json or STEM.<rank>.json.br; other suffixes (.vom, .yaml) are other formats.
  std::map<Rank, std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() + 1 || name.compare(0, prefix.size() + 1, prefix + ".") != 0) continue;
    std::string rest = name.substr(prefix.size() + 1);
    const auto dot = rest.find('.');
    if (dot == std::string::npos || dot == 0) continue;
    const std::string digits = rest.substr(0, dot);
    const std::string suffix = rest.substr(dot);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    if (suffix != ".json" && suffix != ".json.br") continue;
    const Rank rank = static_cast<Rank>(std::stol(digits));
    if (!files.emplace(rank, entry.path()).second) {
      throw DataError(entry.path().string() + ": a second file for rank " + std::to_string(rank) +
                      " (also " + files[rank].string() + ")");
    }
  }
  if (files.empty()) {
    throw DataError(stem.string() + ": no files named " + prefix + ".<rank>.json in " + dir.string());
  }
  const Rank ranks = static_cast<Rank>(files.size());
  LbData data;
  data.ranks.reserve(files.size());
  for (Rank r = 0; r < ranks; ++r) {
    const auto it = files.find(r);
    if (it == files.end()) {
      throw DataError((dir / (prefix + "." + std::to_string(r) + ".json")).string() +
                      ": missing (found " + std::to_string(ranks) + " rank files, so ranks 0.." +
                      std::to_string(ranks - 1) + " are expected)");
    }
    data.ranks.push_back(read_rank_file(it->second, r));
  }
  check_shared_nodes(data, files);
  // A rank that recorded nothing writes an empty phase list (vt does so for ranks without
  // objects); every other rank must list the same phases in the same order.
  const auto with_phases = std::find_if(data.ranks.begin(), data.ranks.end(),
                                        [](const RankData& d) { return !d.phases.empty(); });
  if (with_phases == data.ranks.end()) return data;
  const auto& reference = with_phases->phases;
  const std::string& reference_file = files[with_phases->rank].string();
  for (const auto& rank : data.ranks) {
    const auto& phases = rank.phases;
    if (phases.empty()) continue;
    const std::size_t common = std::min(reference.size(), phases.size());
    for (std::size_t i = 0; i < common; ++i) {
      if (phases[i].id != reference[i].id) {
        throw DataError(files[rank.rank].string() + ": phase " + std::to_string(phases[i].id) +
                        " at position " + std::to_string(i) + " disagrees with phase " +
                        std::to_string(reference[i].id) + " of " + reference_file);
      }
    }
    if (phases.size() != reference.size()) {
      throw DataError(files[rank.rank].string() + ": has " + std::to_string(phases.size()) +
                      " phases but " + reference_file + " has " + std::to_string(reference.size()));
    }
  }
  // A migratable object runs on one rank in a phase. Listed by two ranks, it would be counted
  // twice and moved from both, so plans and the written data would disagree: refuse the data.
  // Objgroup members and objects marked non-migratable may share ids across ranks.
  for (std::size_t i = 0; i < reference.size(); ++i) {
    std::unordered_map<ObjectId, Rank, ObjectIdHash> owner;
    for (const auto& rank : data.ranks) {
      if (rank.phases.empty()) continue;
      for (const Task& task : rank.phases[i].tasks) {
        if (task.entity.objgroup_id || task.entity.migratable == false) continue;
        const auto [it, inserted] = owner.emplace(task.entity.id, rank.rank);
        if (!inserted && it->second != rank.rank)
          throw DataError(files[rank.rank].string() + ": phase " + std::to_string(rank.phases[i].id) + ": object " +
                          to_string(task.entity.id) + " is also listed by " + files[it->second].string() +
                          " (a migratable object runs on one rank per phase)");
      }
    }
  }
  return data;
}

}  // namespace tessera::lb
