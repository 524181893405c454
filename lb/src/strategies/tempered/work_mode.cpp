// TemperedLB with the work model on (tempered_lb.hpp, work_model.hpp): the edge exchange that
// gives every object its edges, the transfer stage in work, and the admission of arrivals against
// the receiver's exact work and memory. Shared blocks are placed as CCM-LB's clusters (Pebay et
// al. 2023): see tempered_lb.hpp for what is kept together and cluster_swap.cpp for swaps.

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

bool TemperedRank::needs_model() const {
  return !shared_->options->work.load_only_here(*input_) || has_limit();
}

RankWork TemperedRank::modeled() const {
  RankWork state(shared_->options->work, rank_, alpha_, input_->working_bytes, node());
  for (const Held& held : held_) state.add(held.object, held.edges, held.origin);
  return state;
}

PeerBlocks TemperedRank::own_blocks() const {
  const RankWork state = modeled();
  std::map<std::pair<std::int64_t, Rank>, double> cluster_load;
  for (const Held& held : held_) {
    if (held.object.memory.shared_id >= 0) cluster_load[{held.object.memory.shared_id, held.origin}] += held.object.load;
  }
  PeerBlocks out;
  out.working = state.largest_working();
  auto blocks = state.shared_blocks();  // in key order: ties below stay deterministic
  // The largest first: a sender that does not see a block must count its bytes, so the list
  // keeps those whose absence would cost most.
  std::stable_sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (std::size_t i = 0; i < blocks.size() && i < PeerBlocks::max_blocks; ++i) {
    out.blocks.push_back(blocks[i].first.first);
    out.blocks.push_back(blocks[i].first.second);
    out.bytes.push_back(blocks[i].second);
    out.loads.push_back(cluster_load[blocks[i].first]);
  }
  return out;
}

// --- edge exchange -------------------------------------------------------------------------------

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
  for (const ObjectId& id : message.objects) directory_[id] = ctx.source();
  for (std::size_t i = 0; i < message.edges.size(); ++i) directory_edges_.emplace_back(message.endpoints[i], message.edges[i]);
}

void TemperedRank::share_locations(comm::Communicator& ctx) {
  std::map<Rank, std::set<std::pair<ObjectId, Rank>>> outgoing;  // ordered: a fixed send order and content
  for (const auto& [end, edge] : directory_edges_) {
    const auto it = directory_.find(end);
    if (it == directory_.end()) continue;
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
  for (std::size_t i = 0; i < message.objects.size(); ++i) peer_holders_[message.objects[i]] = message.ranks[i];
}

void TemperedRank::forward_edges(comm::Communicator& ctx) {
  std::map<Rank, EdgeDelivery> outgoing;
  std::map<Rank, std::set<std::pair<ObjectId, Rank>>> located;
  for (const auto& [end, edge] : directory_edges_) {
    // An end that is no object of the phase (a runtime object, an objgroup) has no holder.
    const auto it = directory_.find(end);
    if (it == directory_.end()) continue;
    outgoing[it->second].edges.push_back(edge);
    const ObjectId& other = edge.from == end ? edge.to : edge.from;
    if (const auto peer = peer_holders_.find(other); peer != peer_holders_.end())
      located[it->second].emplace(other, peer->second);
  }
  for (auto& [dest, delivery] : outgoing) {
    for (const auto& [object, holder] : located[dest]) {
      delivery.located.push_back(object);
      delivery.located_ranks.push_back(holder);
    }
  }
  directory_.clear();
  directory_edges_.clear();
  peer_holders_.clear();
  for (const auto& [dest, delivery] : outgoing) ctx.send(dest, shared_->edges, delivery);
}

void TemperedRank::on_edges(comm::Communicator&, const EdgeDelivery& message) {
  delivered_.insert(delivered_.end(), message.edges.begin(), message.edges.end());
  for (std::size_t i = 0; i < message.located.size(); ++i) located_[message.located[i]] = message.located_ranks[i];
}

void TemperedRank::attach_edges() {
  // An edge can arrive several times (recorded by both ranks, or both ends held here); one volume
  // per (sender, receiver), the largest recorded, whatever the arrival order.
  std::map<std::pair<ObjectId, ObjectId>, double> volumes;
  for (const LbEdge& edge : delivered_) {
    double& bytes = volumes[{edge.from, edge.to}];
    bytes = std::max(bytes, edge.bytes);
  }
  delivered_.clear();
  std::unordered_map<ObjectId, std::size_t, ObjectIdHash> index;
  for (std::size_t i = 0; i < start_.size(); ++i) index.emplace(start_[i].object.id, i);
  // Nodes of the ranks the ends were on (work_model.hpp): only with a grouping node map; a peer of
  // unknown holder stays -1, inter-node.
  const std::int32_t own = node();
  const auto node_of = [&](const ObjectId& id) -> std::int32_t {
    if (own < 0) return -1;
    if (index.contains(id)) return own;
    const auto it = located_.find(id);
    return it == located_.end() ? -1 : shared_->nodes->node_of(it->second);
  };
  for (const auto& [ends, bytes] : volumes) {
    if (const auto it = index.find(ends.first); it != index.end())
      start_[it->second].edges.push_back(HalfEdge{ends.second, bytes, true, node_of(ends.second), own});
    if (const auto it = index.find(ends.second); it != index.end())
      start_[it->second].edges.push_back(HalfEdge{ends.first, bytes, false, node_of(ends.first), own});
  }
  located_.clear();
  held_ = start_;
  best_ = start_;
}

// --- transfer in work ----------------------------------------------------------------------------

void TemperedRank::propose_modeled(comm::Communicator& ctx) {
  const TemperedOptions& options = *shared_->options;
  const WorkModel& model = options.work;
  RankWork state = modeled();
  double own = state.work();
  const double limit = options.threshold * shared_->average;
  if (!(own > limit)) return;

  // Known underloaded ranks in rank order (see known_peers), with their headroom.
  known_.settle();
  std::vector<Peer> peers;
  std::vector<double> headroom;
  std::vector<const PeerBlocks*> there;  // what each peer held when it informed
  for (const std::size_t i : known_.rank_order()) {
    if (known_.ranks()[i] == rank_) continue;
    peers.push_back(Peer{known_.ranks()[i], known_.loads()[i]});
    headroom.push_back(known_.headroom(i));
    there.push_back(&known_.blocks(i));
  }
  if (peers.empty()) return;

  // The ordering reads each object's marginal work: what this rank saves by giving it away.
  std::vector<LbObject> marginal;
  marginal.reserve(held_.size());
  for (const Held& held : held_) {
    marginal.push_back(held.object);
    marginal.back().load = own - state.work_without(held.object, held.edges, held.origin);
  }
  const auto order = order_objects(options.ordering, marginal, shared_->average, own);
  Cmf cmf;
  cmf.build(peers, shared_->average, options.cmf);
  Random random = stream(Stage::transfer, 0);
  std::vector<bool> leaving(held_.size(), false);
  std::map<Rank, TransferMessage> outgoing;  // ascending destination: a fixed send order
  // Objects that share a memory block follow the first of them to the same peer (CCM-LB moves
  // such clusters whole): there the block is counted once, in memory and in the homing term,
  // instead of once per object on as many ranks.
  std::map<std::int64_t, std::size_t> block_peer;     // shared_id -> index into peers
  // The largest working bytes on each peer: what it informed, then what was sent to it.
  std::vector<double> working_sent(peers.size(), 0.0);
  for (std::size_t p = 0; p < peers.size(); ++p) working_sent[p] = there[p]->working;
  // Cluster swaps, at most one per peer (a message carries one unit): each receiver may send a
  // cluster back, so the sender reserves for each swap the work its cluster may bring back
  // (`reserved`, counted in later swap decisions and capped at the receiver) and, once all are
  // decided, splits the memory it can take back among them (finish_swaps).
  const bool may_swap = shared_->limited;
  const RankWork before = state;
  std::vector<SwapPlan> swaps;
  std::vector<bool> swapping(peers.size(), false);
  double reserved = 0.0;  // seconds
  const bool grapevine = options.criterion == TemperedOptions::Criterion::grapevine;
  for (std::size_t n = 0; n < order.size() && own > limit; ++n) {
    if (leaving[order[n]]) continue;  // sent with its whole cluster in a swap
    const Held& held = held_[order[n]];
    const ObjectMemory& m = held.object.memory;
    const auto follows = m.shared_id >= 0 ? block_peer.find(m.shared_id) : block_peer.end();
    std::size_t peer = follows != block_peer.end() ? follows->second : Cmf::npos;
    if (peer == Cmf::npos && m.shared_id >= 0 && shared_->blocks) {
      // A peer known to hold the block takes the object without its bytes or homing: the least
      // loaded such peer below the average, before any draw (CCM-LB keeps clusters together).
      for (std::size_t p = 0; p < peers.size(); ++p) {
        if (peers[p].load < shared_->average && there[p]->holds(m.shared_id, held.origin) &&
            (peer == Cmf::npos || peers[p].load < peers[peer].load))
          peer = p;
      }
    }
    if (peer == Cmf::npos) peer = cmf.sample(random.real());
    if (peer == Cmf::npos) break;
    const bool block_there =
        m.shared_id >= 0 && (follows != block_peer.end() || there[peer]->holds(m.shared_id, held.origin));
    double out = 0.0, in = 0.0;
    for (const HalfEdge& e : held.edges) (e.out ? out : in) += e.bytes;
    const bool homeless = m.shared_id >= 0 && held.origin != peers[peer].rank && !block_there;
    const double after_peer = peers[peer].load + model.alpha * held.object.load +
                              (model.beta + model.gamma) * std::max(out, in) +
                              model.delta * (homeless ? m.shared_bytes : 0.0);
    const double after_own = state.work_without(held.object, held.edges, held.origin);
    // An upper bound of what the peer's memory grows by: the footprint, the block unless the peer
    // informed it holds it or it went there already in this proposal, and the working bytes
    // beyond the largest there.
    const double adds = m.footprint_bytes + std::max(0.0, m.working_bytes - working_sent[peer]) +
                        (m.shared_id >= 0 && !block_there ? m.shared_bytes : 0.0);
    double peer_after = after_peer;
    std::vector<std::size_t> moving{order[n]};
    if (adds > headroom[peer]) {
      // Refused for memory: unless the peer can send back one of its clusters (of another block,
      // whose bytes make room) and both ranks still end below this one's work, as CCM-LB swaps.
      SwapChoice choice;
      if (may_swap && !swapping[peer] && !block_there) {
        choice = choose_swap(order[n], SwapPeer{peers[peer].rank, peers[peer].load, headroom[peer], working_sent[peer], there[peer]},
                             state, before, leaving, swaps, own, reserved);
      }
      if (choice.cluster == SwapChoice::npos) {
        ++rejected_memory_;
        continue;
      }
      swapping[peer] = true;
      reserved += choice.work;
      swaps.push_back(SwapPlan{peer, {m.shared_id, held.origin}, choice.work, choice.bytes});
      peer_after = choice.peer_after;
      headroom[peer] += there[peer]->bytes[choice.cluster] - choice.adds;
      moving = std::move(choice.unit);
    } else {
      const bool holds = grapevine ? after_peer < shared_->average : std::max(after_peer, after_own) < own;
      if (!holds) {
        ++rejected_;
        continue;
      }
      headroom[peer] -= adds;
    }
    TransferMessage& message = outgoing[peers[peer].rank];
    const double decided_at = own;
    for (const std::size_t i : moving) {
      const Held& unit = held_[i];
      message.objects.push_back(unit);
      message.sender_loads.push_back(decided_at);
      state.remove(unit.object, unit.edges, unit.origin);
      working_sent[peer] = std::max(working_sent[peer], unit.object.memory.working_bytes);
      leaving[i] = true;
      ++transfers_;
    }
    own = state.work();
    peers[peer].load = peer_after;
    if (m.shared_id >= 0) block_peer.emplace(m.shared_id, peer);
    if (options.cmf == TemperedOptions::Cmf::normbymax) cmf.build(peers, shared_->average, options.cmf);
  }
  std::vector<Held> staying;
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (!leaving[i]) staying.push_back(std::move(held_[i]));
  }
  held_ = std::move(staying);
  if (!swaps.empty()) {
    std::vector<TransferMessage*> messages;
    for (const SwapPlan& swap : swaps) messages.push_back(&outgoing[peers[swap.peer].rank]);
    finish_swaps(before, state.work(), swaps, messages);
  }
  for (const auto& [dest, message] : outgoing) ctx.send(dest, shared_->proposal, message);
}

void TemperedRank::admit_modeled(comm::Communicator& ctx) {
  const TemperedOptions& options = *shared_->options;
  const bool check_work = options.admit == TemperedOptions::Admit::receiver;
  RankWork state = modeled();
  std::map<Rank, TransferMessage> back;
  std::vector<bool> unit_done(arrivals_.size(), false);
  for (const Candidate& c : candidates()) {  // most loaded sender first; loads are work here
    TransferMessage& message = arrivals_[c.message].second;
    Held& held = message.objects[c.index];
    if (message.swap_id >= 0 && held.object.memory.shared_id == message.swap_id && held.origin == message.swap_home) {
      // A swap's unit is decided whole when its first object comes up (its sender's largest work).
      if (!unit_done[c.message]) admit_swap(state, message, c.source, c.sender_load, back[c.source].objects);
      unit_done[c.message] = true;
      continue;
    }
    bool admit = true;
    if (state.memory_with(held.object, held.origin) > limit_) {
      ++rejected_memory_;
      admit = false;
    } else if (check_work) {
      const double after = state.work_with(held.object, held.edges, held.origin);
      admit = options.criterion == TemperedOptions::Criterion::grapevine ? after < shared_->average
                                                                          : after < c.sender_load;
      if (!admit) ++rejected_;
    }
    if (admit) {
      state.add(held.object, held.edges, held.origin);
      held_.push_back(std::move(held));
    } else {
      back[c.source].objects.push_back(std::move(held));
      --transfers_;  // counted as accepted by the sender, undone here: totals stay gross moves
    }
  }
  arrivals_.clear();
  for (const auto& [source, message] : back) {
    if (!message.objects.empty()) ctx.send(source, shared_->returned, message);
  }
}

}  // namespace tessera::lb::tempered
