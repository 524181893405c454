#include <tessera/lb/lb_data_io.hpp>
#include <tessera/lb/manager/lb_data_output.hpp>
#include <tessera/runtime/error.hpp>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace tessera::lb {

namespace {
constexpr std::string_view kRankSuffix = ".%p.json";

lb::Entity element_entity(const collections::ElementKey& key, int home, const std::vector<std::int64_t>& index) {
  lb::Entity entity;
  const auto collection = static_cast<std::int64_t>(key.collection);
  entity.id = lb::ObjectId::sequential(key.element, collection);
  entity.home = home;
  entity.migratable = true;
  entity.collection_id = collection;
  entity.index = index;
  return entity;
}

lb::Entity rank_entity(int rank) {
  lb::Entity entity;
  entity.id = lb::ObjectId::packed(static_cast<std::uint64_t>(rank));
  entity.home = rank;
  entity.migratable = false;
  entity.objgroup_id = 0;
  return entity;
}
}  // namespace

void LbDataFlags::describe(FlagTable& table) {
  table.flag("--tessera_lb_data", enabled, "Write LB data (vt's LBDatafile JSON) for every phase");
  table.option("--tessera_lb_data_dir", dir, "Directory of the LB data files");
  table.option("--tessera_lb_data_file", file, "LB data file name per rank, of the form STEM.%p.json");
  table.flag("--tessera_lb_data_compress", compress, "Brotli-compress the LB data files");
  table.option("--tessera_lb_report", report,
               "At the end of the run, write the LB data's HTML report (lbsim report) to this file; records LB "
               "data as --tessera_lb_data does");
  table.flag("--tessera_lb_advise", advise,
             "At the end of the run, print the balancer advisor's top three --tessera_lb_* options with their "
             "predicted gain over this run (lbsim advise); records LB data as --tessera_lb_data does");
}

void LbDataFlags::validate() const {
  const bool shaped = file.size() > kRankSuffix.size() && file.ends_with(kRankSuffix) &&
                      file.find('%') == file.size() - kRankSuffix.size() + 1 && file.find('/') == std::string::npos;
  if (!shaped)
    throw Error("--tessera_lb_data_file=" + file +
                ": expected a file name of the form STEM.%p.json (%p is the rank), e.g. data.%p.json");
}

std::filesystem::path LbDataFlags::stem(int rank_set) const {
  std::filesystem::path folder(dir);
  if (rank_set > 0) folder /= "rescale-" + std::to_string(rank_set);
  return folder / file.substr(0, file.size() - kRankSuffix.size());
}

lb::Phase to_lb_phase(const collections::PhaseRecord& record) {
  lb::Phase phase;
  phase.id = record.phase;
  std::map<collections::ElementKey, lb::Entity> entities;
  for (const auto& element : record.elements) {
    lb::Task task;
    task.entity = element_entity(element.key, element.home, element.index);
    task.node = record.rank;
    task.time = element.load;
    if (element.footprint_bytes)
      task.user_defined = nlohmann::json{{"task_footprint_bytes", *element.footprint_bytes}}.dump();
    for (std::size_t s = 0; s < element.subphase_loads.size(); ++s)
      task.subphases.push_back(lb::Subphase{static_cast<std::int64_t>(s), element.subphase_loads[s]});
    entities.emplace(element.key, task.entity);
    phase.tasks.push_back(std::move(task));
  }
  lb::Task rank_task;
  rank_task.entity = rank_entity(record.rank);
  rank_task.node = record.rank;
  rank_task.time = record.rank_load;
  phase.tasks.push_back(std::move(rank_task));
  for (const auto& edge : record.edges) {
    lb::Edge out;
    auto describe = [&](const collections::ElementKey& key) {
      if (key.is_rank()) return rank_entity(static_cast<int>(key.element));
      auto it = entities.find(key);
      // A sender that never ran here: its home is unknown on this rank, so it is left out.
      if (it != entities.end()) return it->second;
      lb::Entity entity;
      entity.id = lb::ObjectId::sequential(key.element, static_cast<std::int64_t>(key.collection));
      entity.migratable = true;
      entity.collection_id = static_cast<std::int64_t>(key.collection);
      return entity;
    };
    out.from = describe(edge.from);
    out.to = describe(edge.to);
    out.messages = edge.messages;
    out.bytes = edge.bytes;
    phase.communications.push_back(std::move(out));
  }
  return phase;
}

lb::SharedNode shared_node(const tessera::NodeMap& nodes, int rank) {
  const int node = nodes.node_of(rank);
  return lb::SharedNode{node, nodes.node_size(node), nodes.rank_in_node(rank), nodes.num_nodes()};
}

void LbDataOutput::add(const collections::PhaseRecord& record) {
  data_.phases.push_back(to_lb_phase(record));
  phase_time_s_.push_back(now_() - mark_);
  inserted_.push_back(record.membership.inserted);
  destroyed_.push_back(record.membership.destroyed);
}

lb::RankData LbDataOutput::data() const {
  lb::RankData out = data_;
  nlohmann::json metadata{{"phase_time_s", phase_time_s_}};
  const auto any = [](const std::vector<std::int64_t>& counts) {
    return std::any_of(counts.begin(), counts.end(), [](std::int64_t n) { return n != 0; });
  };
  if (any(inserted_) || any(destroyed_)) {
    metadata["inserted"] = inserted_;
    metadata["destroyed"] = destroyed_;
  }
  if (migration_bytes_ > 0.0 && migration_s_ > 0.0) {
    metadata["migration_bytes"] = migration_bytes_;
    metadata["migration_s"] = migration_s_;
  }
  out.metadata_extra = metadata.dump();
  return out;
}

void LbDataOutput::write() const {
  lb::LbData all;
  all.ranks.push_back(data());
  lb::WriteOptions options;
  options.compress = flags_.compress;
  lb::write_lb_data(all, flags_.stem(rank_set_), options);
}

}  // namespace tessera::lb
