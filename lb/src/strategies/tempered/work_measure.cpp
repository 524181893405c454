// TemperedLB in work (work_measure.hpp): a rank's work and memory, and the sender's and the
// receiver's tests of the transfer stage in work.

#include "work_measure.hpp"

#include <algorithm>
#include <map>

namespace tessera::lb::tempered {

bool TemperedRank::needs_model() const {
  return !shared_->options->work.load_only_here(*input_) || has_limit();
}

bool TemperedRank::work_is_proportional() const { return shared_->options->work.load_only_here(*input_); }

std::uint64_t TemperedRank::held_key() const {
  std::uint64_t key = mix64(held_.size());
  for (const Held& held : held_) {
    const ObjectId& id = held.object.id;
    key += mix64(id.value ^ mix64(static_cast<std::uint64_t>(id.collection) * 2 + (id.is_seq ? 1 : 0)));
  }
  return key;
}

double TemperedRank::modeled_value() const {
  const std::uint64_t key = held_key();
  if (!value_known_ || key != value_key_) {
    value_ = modeled().work();
    value_key_ = key;
    value_known_ = true;
  }
  return value_;
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

// --- the sender ----------------------------------------------------------------------------------

TemperedRank::WorkSender::WorkSender(const TemperedRank& rank, const std::vector<std::size_t>& known)
    : rank_(rank),
      options_(*rank.shared_->options),
      state_(rank.modeled()),
      before_(state_),
      own_(state_.work()),
      leaving_(rank.held_.size(), false),
      swapping_(known.size(), false) {
  // The ordering reads each object's marginal work: what this rank saves by giving it away.
  marginal_.reserve(rank.held_.size());
  for (const Held& held : rank.held_) {
    marginal_.push_back(held.object);
    marginal_.back().load = own_ - state_.work_without(held.object, held.edges, held.origin);
  }
  for (const std::size_t i : known) {
    headroom_.push_back(rank.known_.headroom(i));
    there_.push_back(rank.known_.blocks(i));
    working_sent_.push_back(there_.back().working);
  }
}

std::size_t TemperedRank::WorkSender::bound_peer(std::size_t object, const std::vector<Peer>& peers) const {
  // Objects that share a memory block follow the first of them to the same peer (CCM-LB moves
  // such clusters whole): there the block is counted once, in memory and in the homing term,
  // instead of once per object on as many ranks.
  const Held& held = rank_.held_[object];
  const std::int64_t block = held.object.memory.shared_id;
  if (block < 0) return Cmf::npos;
  if (const auto follows = block_peer_.find(block); follows != block_peer_.end()) return follows->second;
  std::size_t peer = Cmf::npos;
  if (!rank_.shared_->blocks) return peer;
  // A peer known to hold the block takes the object without its bytes or homing: the least
  // loaded such peer below the average, before any draw (CCM-LB keeps clusters together).
  const double average = rank_.shared_->average;
  for (std::size_t p = 0; p < peers.size(); ++p) {
    if (peers[p].load < average && there_[p].holds(block, held.origin) &&
        (peer == Cmf::npos || peers[p].load < peers[peer].load))
      peer = p;
  }
  return peer;
}

TemperedRank::WorkSender::Trial TemperedRank::WorkSender::offer(std::size_t object, std::size_t peer,
                                                                const std::vector<Peer>& peers) const {
  const WorkModel& model = options_.work;
  const Held& held = rank_.held_[object];
  const ObjectMemory& m = held.object.memory;
  Trial t{object, peer};
  t.block_there = m.shared_id >= 0 && (block_peer_.contains(m.shared_id) || there_[peer].holds(m.shared_id, held.origin));
  double out = 0.0, in = 0.0;
  for (const HalfEdge& e : held.edges) (e.out ? out : in) += e.bytes;
  const bool homeless = m.shared_id >= 0 && held.origin != peers[peer].rank && !t.block_there;
  t.after_peer = peers[peer].load + model.alpha * held.object.load + (model.beta + model.gamma) * std::max(out, in) +
                 model.delta * (homeless ? m.shared_bytes : 0.0);
  t.after_own = state_.work_without(held.object, held.edges, held.origin);
  // An upper bound of what the peer's memory grows by: the footprint, the block unless the peer
  // informed it holds it or it went there already in this proposal, and the working bytes
  // beyond the largest there.
  t.adds = m.footprint_bytes + std::max(0.0, m.working_bytes - working_sent_[peer]) +
           (m.shared_id >= 0 && !t.block_there ? m.shared_bytes : 0.0);
  t.peer_after = t.after_peer;
  t.unit = {object};
  return t;
}

bool TemperedRank::WorkSender::make_room(Trial& t, const std::vector<Peer>& peers) {
  // Unless the peer can send back one of its clusters (of another block, whose bytes make room)
  // and both ranks still end below this one's work, as CCM-LB swaps.
  if (!rank_.shared_->limited || swapping_[t.peer] || t.block_there) return false;
  const SwapChoice choice = choose_swap(
      t.object, SwapPeer{peers[t.peer].rank, peers[t.peer].load, headroom_[t.peer], working_sent_[t.peer], &there_[t.peer]});
  if (choice.cluster == SwapChoice::npos) return false;
  const Held& held = rank_.held_[t.object];
  swapping_[t.peer] = true;
  reserved_ += choice.work;
  swaps_.push_back(SwapPlan{t.peer, {held.object.memory.shared_id, held.origin}, choice.work, choice.bytes});
  t.peer_after = choice.peer_after;
  headroom_[t.peer] += there_[t.peer].bytes[choice.cluster] - choice.adds;
  t.unit = choice.unit;
  t.swapped = true;
  return true;
}

bool TemperedRank::WorkSender::holds(const Trial& t, const std::vector<Peer>&) const {
  if (options_.criterion == TemperedOptions::Criterion::grapevine) return t.after_peer < rank_.shared_->average;
  return std::max(t.after_peer, t.after_own) < own_;
}

const std::vector<std::size_t>& TemperedRank::WorkSender::send(Trial& t, std::vector<Peer>& peers) {
  if (!t.swapped) headroom_[t.peer] -= t.adds;
  for (const std::size_t i : t.unit) {
    const Held& unit = rank_.held_[i];
    state_.remove(unit.object, unit.edges, unit.origin);
    working_sent_[t.peer] = std::max(working_sent_[t.peer], unit.object.memory.working_bytes);
    leaving_[i] = true;
  }
  own_ = state_.work();
  peers[t.peer].load = t.peer_after;
  const std::int64_t block = rank_.held_[t.object].object.memory.shared_id;
  if (block >= 0) block_peer_.emplace(block, t.peer);
  return t.unit;
}

// --- the receiver --------------------------------------------------------------------------------

TemperedRank::WorkReceiver::WorkReceiver(TemperedRank& rank)
    : rank_(rank), state_(rank.modeled()), check_(rank.shared_->options->admit == TemperedOptions::Admit::receiver) {}

bool TemperedRank::WorkReceiver::accepts(const Held& held, double sender) const {
  if (!check_) return true;
  const double after = state_.work_with(held.object, held.edges, held.origin);
  return rank_.shared_->options->criterion == TemperedOptions::Criterion::grapevine ? after < rank_.shared_->average
                                                                                     : after < sender;
}

}  // namespace tessera::lb::tempered
