// The work model and the exact per-rank work and memory (work_model.hpp).

#include "tessera/lb/work_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tessera::lb {

std::vector<KeySpec> WorkModel::keys() {
  return {
      real_key("alpha", "1", "work per second of load (a rank's metadata rank_alpha overrides it)", 0.0),
      real_key("beta", "0", "work per byte of the larger of a rank's inter-node sent and received volumes", 0.0),
      real_key("gamma", "0",
               "work per byte of the larger of a rank's sent and received volumes to and from other ranks of its "
               "node (none without a node map)",
               0.0),
      real_key("delta", "0", "work per byte of shared blocks on a rank other than their home (homing)", 0.0),
      real_key("memory_limit", "0",
               "bytes a rank may hold (rank_working_bytes + shared blocks + footprints + largest "
               "working bytes); 0: only the ranks' metadata memory_limit",
               0.0),
  };
}

WorkModel WorkModel::from_args(const Args& args) {
  return WorkModel{args.real("alpha"), args.real("beta"), args.real("gamma"), args.real("delta"),
                   args.real("memory_limit")};
}

bool WorkModel::load_only_here(const StrategyInput& rank) const {
  return beta == 0.0 && gamma == 0.0 && delta == 0.0 && (!rank.rank_alpha || *rank.rank_alpha == alpha);
}

bool WorkModel::load_only(std::span<const StrategyInput> ranks) const {
  return std::all_of(ranks.begin(), ranks.end(), [&](const StrategyInput& r) { return load_only_here(r); });
}

double WorkModel::limit_of(const StrategyInput& rank) const {
  double limit = memory_limit > 0.0 ? memory_limit : std::numeric_limits<double>::infinity();
  if (rank.memory_limit) limit = std::min(limit, *rank.memory_limit);
  return limit;
}

std::unordered_map<ObjectId, std::vector<HalfEdge>, ObjectIdHash> object_edges(
    std::span<const StrategyInput> ranks, const NodeMap& nodes) {
  // Object -> node of its rank, -1 when the map groups nothing (the bytes are then inter-node).
  const bool grouped = nodes.grouped();
  std::unordered_map<ObjectId, std::int32_t, ObjectIdHash> objects;
  for (const auto& rank : ranks) {
    for (const auto& object : rank.objects) objects.emplace(object.id, grouped ? nodes.node_of(rank.rank) : -1);
  }
  std::map<std::pair<ObjectId, ObjectId>, double> volumes;  // one volume per (sender, receiver)
  for (const auto& rank : ranks) {
    for (const auto& edge : rank.edges) {
      if (edge.from == edge.to || !objects.contains(edge.from) || !objects.contains(edge.to)) continue;
      volumes[{edge.from, edge.to}] = edge.bytes;
    }
  }
  std::unordered_map<ObjectId, std::vector<HalfEdge>, ObjectIdHash> edges;
  for (const auto& [ends, bytes] : volumes) {
    const std::int32_t from = objects.at(ends.first);
    const std::int32_t to = objects.at(ends.second);
    edges[ends.first].push_back(HalfEdge{ends.second, bytes, true, to, from});
    edges[ends.second].push_back(HalfEdge{ends.first, bytes, false, from, to});
  }
  return edges;
}

std::vector<double> WorkModel::rank_work(std::span<const StrategyInput> ranks, std::span<const StrategyInput> start,
                                         const NodeMap& nodes) const {
  if (!nodes.node.empty() && nodes.node.size() != ranks.size())
    throw std::invalid_argument("rank_work: node map of " + std::to_string(nodes.node.size()) + " ranks for " +
                                std::to_string(ranks.size()) + " ranks");
  const bool grouped = nodes.grouped();
  std::unordered_map<ObjectId, Rank, ObjectIdHash> homes;
  for (const auto& rank : start) {
    for (const auto& object : rank.objects) homes.emplace(object.id, rank.rank);
  }
  std::vector<double> work;
  work.reserve(ranks.size());
  const auto edges = beta != 0.0 || gamma != 0.0
                         ? object_edges(ranks, nodes)
                         : std::unordered_map<ObjectId, std::vector<HalfEdge>, ObjectIdHash>{};
  for (const auto& rank : ranks) {
    RankWork state(*this, rank.rank, alpha_of(rank), rank.working_bytes, grouped ? nodes.node_of(rank.rank) : -1);
    for (const auto& object : rank.objects) {
      const auto it = edges.find(object.id);
      const auto home = homes.find(object.id);
      state.add(object, it == edges.end() ? std::span<const HalfEdge>{} : std::span<const HalfEdge>(it->second),
                home == homes.end() ? rank.rank : home->second);
    }
    work.push_back(state.work());
  }
  return work;
}

double rank_memory(const StrategyInput& rank) {
  const WorkModel model;
  RankWork state(model, rank.rank, 1.0, rank.working_bytes);
  for (const auto& object : rank.objects) state.add(object, {}, rank.rank);
  return state.memory();
}

std::int64_t memory_violations(const WorkModel& model, std::span<const StrategyInput> ranks) {
  std::int64_t count = 0;
  for (const auto& rank : ranks) count += rank_memory(rank) > model.limit_of(rank) ? 1 : 0;
  return count;
}

// --- RankWork ------------------------------------------------------------------------------------

RankWork::RankWork(const WorkModel& model, Rank rank, double alpha, double working_bytes, std::int32_t node)
    : model_(&model), rank_(rank), node_(node), alpha_(alpha), working_bytes_(working_bytes) {}

RankWork::Volumes RankWork::volumes_after(std::span<const HalfEdge> edges, const ObjectId& self, int sign) const {
  // Adding the object (sign +1): its edges to objects here become free, its other edges leave the
  // rank. Removing it (sign -1): the reverse. A peer here had counted its half of the edge by the
  // node this object was on (own_node); an edge leaving the rank counts by the peer's node.
  Volumes v = volumes_;
  for (const HalfEdge& e : edges) {
    const bool here = e.peer != self && ids_.contains(e.peer);
    const double b = sign * e.bytes;
    const bool intra = node_ >= 0 && (here ? e.own_node : e.peer_node) == node_;
    double& sent = intra ? v.intra_sent : v.sent;
    double& received = intra ? v.intra_received : v.received;
    if (e.out) {
      (here ? received : sent) += here ? -b : b;
    } else {
      (here ? sent : received) += here ? -b : b;
    }
  }
  return v;
}

double RankWork::homing_after(const LbObject& object, Rank home, int sign) const {
  const ObjectMemory& m = object.memory;
  if (m.shared_id < 0 || home == rank_) return homing_;
  const auto it = blocks_.find({m.shared_id, home});
  const int count = it == blocks_.end() ? 0 : it->second.second;
  if (sign > 0) return count == 0 ? homing_ + m.shared_bytes : homing_;
  return count == 1 ? homing_ - m.shared_bytes : homing_;
}

double RankWork::work_of(double load, Volumes v, double homing) const {
  // Rounding can leave -1e-9 where a volume went back to nothing.
  const double inter = std::max({0.0, v.sent, v.received});
  const double intra = std::max({0.0, v.intra_sent, v.intra_received});
  return alpha_ * load + model_->beta * inter + model_->gamma * intra + model_->delta * homing;
}

double RankWork::work() const { return work_of(load_, volumes_, homing_); }

double RankWork::memory() const {
  return working_bytes_ + shared_ + footprint_ + (working_.empty() ? 0.0 : *working_.rbegin());
}

double RankWork::work_without(const LbObject& object, std::span<const HalfEdge> edges, Rank home) const {
  return work_of(load_ - object.load, volumes_after(edges, object.id, -1), homing_after(object, home, -1));
}

double RankWork::work_with(const LbObject& object, std::span<const HalfEdge> edges, Rank home) const {
  return work_of(load_ + object.load, volumes_after(edges, object.id, +1), homing_after(object, home, +1));
}

double RankWork::memory_with(const LbObject& object, Rank home) const {
  const ObjectMemory& m = object.memory;
  double shared = shared_;
  if (m.shared_id >= 0 && !blocks_.contains({m.shared_id, home})) shared += m.shared_bytes;
  const double working = std::max(m.working_bytes, working_.empty() ? 0.0 : *working_.rbegin());
  return working_bytes_ + shared + footprint_ + m.footprint_bytes + working;
}

void RankWork::add(const LbObject& object, std::span<const HalfEdge> edges, Rank home) {
  volumes_ = volumes_after(edges, object.id, +1);
  homing_ = homing_after(object, home, +1);
  ids_.insert(object.id);
  load_ += object.load;
  const ObjectMemory& m = object.memory;
  footprint_ += m.footprint_bytes;
  working_.insert(m.working_bytes);
  if (m.shared_id >= 0) {
    auto& [bytes, count] = blocks_[{m.shared_id, home}];
    if (count++ == 0) {
      bytes = m.shared_bytes;
      shared_ += bytes;
    }
  }
}

void RankWork::remove(const LbObject& object, std::span<const HalfEdge> edges, Rank home) {
  volumes_ = volumes_after(edges, object.id, -1);
  ids_.erase(object.id);
  homing_ = homing_after(object, home, -1);
  load_ -= object.load;
  const ObjectMemory& m = object.memory;
  footprint_ -= m.footprint_bytes;
  if (const auto it = working_.find(m.working_bytes); it != working_.end()) working_.erase(it);
  if (m.shared_id >= 0) {
    const auto it = blocks_.find({m.shared_id, home});
    if (it != blocks_.end() && --it->second.second == 0) {
      shared_ -= it->second.first;
      blocks_.erase(it);
    }
  }
}

}  // namespace tessera::lb
