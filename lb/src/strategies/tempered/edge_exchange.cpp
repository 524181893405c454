// The work model's edge exchange for TemperedLB (beta or gamma != 0): every recorded edge reaches
// the ranks holding its ends through the directory rank of each end (a hash of the object id),
// whichever rank recorded it, and with a grouping node map the holders learn where the other
// ends are (work_model.hpp counts bytes by node).

#include <algorithm>
#include <map>
#include <set>

#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

namespace {

Rank directory_of(const ObjectId& id, Rank ranks) {
  return static_cast<Rank>(ObjectIdHash{}(id) % static_cast<std::size_t>(ranks));
}

}  // namespace

void TemperedRank::send_to_directory(comm::Communicator& ctx) {
  std::map<Rank, DirectoryMessage> outgoing;  // ascending destination: a fixed send order
  for (const Held& held : start_) outgoing[directory_of(held.object.id, shared_->size)].objects.push_back(held.object.id);
  for (const LbEdge& edge : input_->edges) {
    if (edge.from == edge.to) continue;
    for (const ObjectId& end : {edge.from, edge.to}) {
      DirectoryMessage& message = outgoing[directory_of(end, shared_->size)];
      message.endpoints.push_back(end);
      message.edges.push_back(edge);
    }
  }
  for (const auto& [dest, message] : outgoing) ctx.send(dest, shared_->directory, message);
}

void TemperedRank::on_directory(comm::Communicator& ctx, const DirectoryMessage& message) {
  for (const ObjectId& id : message.objects) directory_.holders[id] = ctx.source();
  for (std::size_t i = 0; i < message.edges.size(); ++i) directory_.edges.emplace_back(message.endpoints[i], message.edges[i]);
}

void TemperedRank::share_locations(comm::Communicator& ctx) {
  std::map<Rank, std::set<std::pair<ObjectId, Rank>>> outgoing;  // ordered: a fixed send order and content
  for (const auto& [end, edge] : directory_.edges) {
    const auto it = directory_.holders.find(end);
    if (it == directory_.holders.end()) continue;
    const ObjectId& other = edge.from == end ? edge.to : edge.from;
    outgoing[directory_of(other, shared_->size)].emplace(end, it->second);
  }
  for (const auto& [dest, entries] : outgoing) {
    LocationMessage message;
    for (const auto& [object, holder] : entries) {
      message.objects.push_back(object);
      message.ranks.push_back(holder);
    }
    ctx.send(dest, shared_->locations, message);
  }
}

void TemperedRank::on_locations(comm::Communicator&, const LocationMessage& message) {
  for (std::size_t i = 0; i < message.objects.size(); ++i) directory_.peer_holders[message.objects[i]] = message.ranks[i];
}

void TemperedRank::forward_edges(comm::Communicator& ctx) {
  std::map<Rank, EdgeDelivery> outgoing;
  std::map<Rank, std::set<std::pair<ObjectId, Rank>>> located;
  for (const auto& [end, edge] : directory_.edges) {
    // An end that is no object of the phase (a runtime object, an objgroup) has no holder.
    const auto it = directory_.holders.find(end);
    if (it == directory_.holders.end()) continue;
    outgoing[it->second].edges.push_back(edge);
    const ObjectId& other = edge.from == end ? edge.to : edge.from;
    if (const auto peer = directory_.peer_holders.find(other); peer != directory_.peer_holders.end())
      located[it->second].emplace(other, peer->second);
  }
  for (auto& [dest, delivery] : outgoing) {
    for (const auto& [object, holder] : located[dest]) {
      delivery.located.push_back(object);
      delivery.located_ranks.push_back(holder);
    }
  }
  directory_.holders.clear();
  directory_.edges.clear();
  directory_.peer_holders.clear();
  for (const auto& [dest, delivery] : outgoing) ctx.send(dest, shared_->edges, delivery);
}

void TemperedRank::on_edges(comm::Communicator&, const EdgeDelivery& message) {
  directory_.delivered.insert(directory_.delivered.end(), message.edges.begin(), message.edges.end());
  for (std::size_t i = 0; i < message.located.size(); ++i) directory_.located[message.located[i]] = message.located_ranks[i];
}

void TemperedRank::attach_edges() {
  value_known_ = false;  // the same objects cost more with their edges
  // An edge can arrive several times (recorded by both ranks, or both ends held here); one volume
  // per (sender, receiver), the largest recorded, whatever the arrival order.
  std::map<std::pair<ObjectId, ObjectId>, double> volumes;
  for (const LbEdge& edge : directory_.delivered) {
    double& bytes = volumes[{edge.from, edge.to}];
    bytes = std::max(bytes, edge.bytes);
  }
  directory_.delivered.clear();
  std::unordered_map<ObjectId, std::size_t, ObjectIdHash> index;
  for (std::size_t i = 0; i < start_.size(); ++i) index.emplace(start_[i].object.id, i);
  // Nodes of the ranks the ends were on (work_model.hpp): only with a grouping node map; a peer of
  // unknown holder stays -1, inter-node.
  const std::int32_t own = node();
  const auto node_of = [&](const ObjectId& id) -> std::int32_t {
    if (own < 0) return -1;
    if (index.contains(id)) return own;
    const auto it = directory_.located.find(id);
    return it == directory_.located.end() ? -1 : shared_->nodes->node_of(it->second);
  };
  for (const auto& [ends, bytes] : volumes) {
    if (const auto it = index.find(ends.first); it != index.end())
      start_[it->second].edges.push_back(HalfEdge{ends.second, bytes, true, node_of(ends.second), own});
    if (const auto it = index.find(ends.second); it != index.end())
      start_[it->second].edges.push_back(HalfEdge{ends.first, bytes, false, node_of(ends.first), own});
  }
  directory_.located.clear();
  held_ = start_;
  best_ = start_;
}

}  // namespace tessera::lb::tempered
