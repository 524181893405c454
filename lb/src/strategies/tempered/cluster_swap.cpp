// Cluster swaps under memory limits in TemperedLB's work-model transfer: the sender's choice of a
// swap and its share of memory (the work sender's, work_measure.hpp) and the receiver's side.
//
// Source: Pebay et al., "CCM-LB" (communication- and memory-constrained load balancing, Sandia
// report, 2023), as LBAF's InformAndTransfer with clustering runs it: objects of one rank that
// share a memory block form a cluster, and when a transfer to a peer would break the peer's
// memory limit, the peer may give back one of its own clusters so that both blocks change places.
// Where we differ: LBAF's transfer is sequential and reads every rank's clusters directly, and
// it swaps whole clusters (or subclusters) on both sides. Here the sender decides from what the
// peer gossiped (its blocks, their bytes and their clusters' loads), may propose one swap per peer
// (several per iteration), and its side of a swap is the objects of one block it chose to send:
// the refused object with whatever of its block follows it, or its whole cluster here, which is
// what lets a sender at its limit take a block back (on challenging_toy_fewer_tasks every rank
// ends at the 5 blocks its limit allows, so a swap that leaves part of a cluster behind can only
// be refused). The receiver then picks the cluster to give back against its exact work and
// memory, and against the sender's memory share and work cap carried in the proposal, so no
// memory limit is ever broken on either side, whichever swaps the receivers accept.

#include <algorithm>
#include <map>

#include "work_measure.hpp"

namespace tessera::lb::tempered {

void TemperedRank::WorkReceiver::admit_unit(TransferMessage& message, Rank source, double sender_work,
                                            std::vector<Held>& back) {
  const TemperedOptions& options = *rank_.shared_->options;
  std::vector<Held>& mine = rank_.held_;
  const WorkModel& model = options.work;
  const bool grapevine = options.criterion == TemperedOptions::Criterion::grapevine;
  const auto in_unit = [&](const Held& held) {
    return held.object.memory.shared_id == message.swap_id && held.origin == message.swap_home;
  };
  std::vector<Held*> unit;
  for (Held& held : message.objects) {
    if (in_unit(held)) unit.push_back(&held);
  }
  const auto with_unit = [&](RankWork trial) {
    for (const Held* held : unit) trial.add(held->object, held->edges, held->origin);
    return trial;
  };
  const auto take_unit = [&] {
    for (Held* held : unit) mine.push_back(std::move(*held));
  };

  // Room without a swap (another sender's swap may have made it): the unit alone.
  if (const RankWork alone = with_unit(state_); alone.memory() <= rank_.limit_) {
    const bool fits = grapevine ? alone.work() < rank_.shared_->average : alone.work() < sender_work;
    if (fits) {
      state_ = alone;
      take_unit();
      return;
    }
  }

  // This rank's clusters, by block key (a fixed order), other than the unit's block.
  std::map<std::pair<std::int64_t, Rank>, std::vector<std::size_t>> clusters;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const ObjectMemory& m = mine[i].object.memory;
    if (m.shared_id >= 0 && !(m.shared_id == message.swap_id && mine[i].origin == message.swap_home))
      clusters[{m.shared_id, mine[i].origin}].push_back(i);
  }
  const PeerBlocks& sender = message.swap_blocks;
  const std::vector<std::size_t>* chosen = nullptr;
  RankWork chosen_state = state_;
  double chosen_worst = HUGE_VAL;
  for (const auto& [key, members] : clusters) {
    // What the cluster adds to the sender's memory (against its bound) and to its work.
    double load = 0.0, footprint = 0.0, working = 0.0, volume = 0.0;
    for (const std::size_t i : members) {
      const Held& held = mine[i];
      load += held.object.load;
      footprint += held.object.memory.footprint_bytes;
      working = std::max(working, held.object.memory.working_bytes);
      for (const HalfEdge& e : held.edges) volume += e.bytes;
    }
    const double bytes = mine[members.front()].object.memory.shared_bytes;
    const bool block_at_sender = sender.holds(key.first, key.second);
    const double adds = footprint + std::max(0.0, working - sender.working) + (block_at_sender ? 0.0 : bytes);
    if (adds > message.swap_headroom) continue;
    RankWork trial = state_;
    for (const std::size_t i : members) trial.remove(mine[i].object, mine[i].edges, mine[i].origin);
    trial = with_unit(std::move(trial));
    if (trial.memory() > rank_.limit_) continue;
    // The sender's work is bounded from above: every byte of the cluster's edges off its rank, at
    // the inter- and the intra-node price at once (the bytes may be of either kind there).
    const double added = message.swap_alpha * load + (model.beta + model.gamma) * volume +
                         model.delta * (key.second != source && !block_at_sender ? bytes : 0.0);
    // Beyond its cap it could take the sender past what its other swaps were judged against.
    if (added > message.swap_cap * (1.0 + 1e-12)) continue;
    const double sender_after = message.swap_after + added;
    const double worst = std::max(trial.work(), sender_after);
    const bool fits =
        grapevine ? trial.work() < rank_.shared_->average && sender_after < sender_work : worst < sender_work;
    if (fits && worst < chosen_worst) {
      chosen = &members;
      chosen_state = std::move(trial);
      chosen_worst = worst;
    }
  }
  if (chosen == nullptr) {
    for (Held* held : unit) back.push_back(std::move(*held));
    rank_.counts_.rejected_memory += static_cast<std::int64_t>(unit.size());
    rank_.counts_.transfers -= static_cast<std::int64_t>(unit.size());  // counted by the sender, undone here
    return;
  }
  std::vector<bool> leaving(mine.size(), false);
  for (const std::size_t i : *chosen) leaving[i] = true;
  std::vector<Held> staying;
  staying.reserve(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (leaving[i]) {
      back.push_back(std::move(mine[i]));
      ++rank_.counts_.transfers;
    } else {
      staying.push_back(std::move(mine[i]));
    }
  }
  mine = std::move(staying);
  state_ = std::move(chosen_state);
  take_unit();
}

SwapChoice TemperedRank::WorkSender::choose_swap(std::size_t object, const SwapPeer& peer) const {
  const WorkModel& model = options_.work;
  const std::vector<Held>& mine = rank_.held_;
  const bool grapevine = options_.criterion == TemperedOptions::Criterion::grapevine;
  const Held& first = mine[object];
  const ObjectMemory& m = first.object.memory;
  const auto key_of = [](const Held& held) { return std::pair{held.object.memory.shared_id, held.origin}; };
  // The units: the object alone, then its whole cluster here when more of it stays.
  std::vector<std::vector<std::size_t>> units{{object}};
  if (m.shared_id >= 0) {
    std::vector<std::size_t> cluster{object};
    for (std::size_t i = 0; i < mine.size(); ++i) {
      if (i != object && !leaving_[i] && mine[i].object.migratable && key_of(mine[i]) == key_of(first))
        cluster.push_back(i);
    }
    if (cluster.size() > 1) units.push_back(std::move(cluster));
  }
  // This rank with the units of the swaps already chosen gone (their leaving objects).
  RankWork swapped_out = before_;
  std::vector<std::vector<std::size_t>> chosen(swaps_.size());
  for (std::size_t i = 0; i < mine.size(); ++i) {
    for (std::size_t s = 0; s < swaps_.size() && leaving_[i]; ++s) {
      if (key_of(mine[i]) == swaps_[s].key) {
        swapped_out.remove(mine[i].object, mine[i].edges, mine[i].origin);
        chosen[s].push_back(i);
      }
    }
  }
  const PeerBlocks& known = *peer.blocks;
  SwapChoice best;
  double best_worst = HUGE_VAL;
  for (std::vector<std::size_t>& unit : units) {
    double load = 0.0, edges = 0.0, footprint = 0.0, working = 0.0;
    RankWork base = swapped_out, without = state_;
    for (const std::size_t i : unit) {
      const Held& held = mine[i];
      double out = 0.0, in = 0.0;
      for (const HalfEdge& e : held.edges) (e.out ? out : in) += e.bytes;
      load += held.object.load;
      edges += std::max(out, in);
      footprint += held.object.memory.footprint_bytes;
      working = std::max(working, held.object.memory.working_bytes);
      base.remove(held.object, held.edges, held.origin);
      without.remove(held.object, held.edges, held.origin);
    }
    const bool homeless = m.shared_id >= 0 && first.origin != peer.rank;
    const double after_peer = peer.load + model.alpha * load + (model.beta + model.gamma) * edges + model.delta * (homeless ? m.shared_bytes : 0.0);
    const double after_own = without.work();
    const double adds = footprint + std::max(0.0, working - peer.working) + (m.shared_id >= 0 ? m.shared_bytes : 0.0);
    // The memory this rank needs to take back what every swap expects (finish shares out
    // limit - M(base) the same way): for each, at least its unit, or the cluster's block if more.
    const auto unit_bytes = [&](const std::vector<std::size_t>& members) {
      RankWork with = base;
      for (const std::size_t i : members) with.add(mine[i].object, mine[i].edges, mine[i].origin);
      return with.memory() - base.memory();
    };
    double needed = 0.0;
    for (std::size_t s = 0; s < swaps_.size(); ++s) needed += std::max(unit_bytes(chosen[s]), swaps_[s].bytes);
    const double own_unit = unit_bytes(unit);
    const double room = rank_.limit_ - base.memory();
    for (std::size_t j = 0; j < known.size(); ++j) {
      const std::int64_t id = known.blocks[2 * j];
      const auto home = static_cast<Rank>(known.blocks[2 * j + 1]);
      if ((id == m.shared_id && home == first.origin) || peer.headroom + known.bytes[j] < adds) continue;
      const double bytes = base.holds_block(id, home) ? 0.0 : known.bytes[j];
      if (needed + std::max(own_unit, bytes) > room) continue;
      const double swapped_peer = after_peer - model.alpha * known.loads[j];
      const double back = rank_.alpha_ * known.loads[j] +
                          model.delta * (home != rank_.rank_ && !state_.holds_block(id, home) ? known.bytes[j] : 0.0);
      const double swapped_own = after_own + reserved_ + back;
      const double worst = std::max(swapped_peer, swapped_own);
      const bool fits = grapevine ? swapped_peer < rank_.shared_->average && swapped_own < own_ : worst < own_;
      if (fits && worst < best_worst) {
        best_worst = worst;
        best = SwapChoice{unit, j, swapped_peer, back, bytes, adds};
      }
    }
  }
  return best;
}

void TemperedRank::WorkSender::finish(std::map<Rank, TransferMessage>& outgoing, const std::vector<Peer>& peers) const {
  if (swaps_.empty()) return;
  const double after = state_.work();
  std::vector<TransferMessage*> messages;
  for (const SwapPlan& swap : swaps_) messages.push_back(&outgoing[peers[swap.peer].rank]);
  const auto in_unit = [&](const Held& held, std::size_t i) {
    return held.object.memory.shared_id == swaps_[i].key.first && held.origin == swaps_[i].key.second;
  };
  const auto without_units = [&](std::size_t from, std::size_t to) {
    RankWork out = before_;
    for (std::size_t i = from; i < to; ++i) {
      for (const Held& held : messages[i]->objects) {
        if (in_unit(held, i)) out.remove(held.object, held.edges, held.origin);
      }
    }
    return out;
  };
  // What the sender can take back is judged against `base`, itself with every swap's unit gone and
  // everything else it proposed returned (receivers admitting more only frees memory here). Each
  // swap ends either with its unit returned or with one cluster back, and each adds to base at
  // most its bytes beyond base (footprints, blocks base lacks, working bytes above base's): so
  // shares of limit - M(base), each at least its unit's own bytes, keep the sum within the limit
  // however the receivers decide.
  const std::size_t n = swaps_.size();
  const RankWork base = without_units(0, n);
  const double room = rank_.limit_ - base.memory();
  std::vector<double> unit(n, 0.0);
  double units = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    RankWork with = base;
    for (const Held& held : messages[i]->objects) {
      if (in_unit(held, i)) with.add(held.object, held.edges, held.origin);
    }
    unit[i] = with.memory() - base.memory();
    units += unit[i];
  }
  std::vector<double> headroom(n, 0.0);
  std::vector<double> cap(n, HUGE_VAL);
  bool first_only = false;
  if (n == 1) {
    headroom[0] = room;
  } else if (room >= units) {
    // Each swap first gets what its expected cluster needs beyond its unit (decision order),
    // then an equal part of what is left.
    double slack = room - units;
    for (std::size_t i = 0; i < n; ++i) {
      const double extra = std::min(std::max(0.0, swaps_[i].bytes - unit[i]), slack);
      headroom[i] = unit[i] + extra;
      slack -= extra;
    }
    for (double& h : headroom) h += slack / static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) cap[i] = swaps_[i].work;
  } else {
    // The per-unit bound overcounts (units sharing working bytes): the first swap alone may bring
    // bytes back, judged against this rank without its unit, as a single swap; the others may
    // bring back only clusters that add nothing to base.
    first_only = true;
    headroom[0] = rank_.limit_ - without_units(0, 1).memory();
    for (std::size_t i = 0; i < n; ++i) cap[i] = swaps_[i].work;
  }
  double caps = 0.0;
  for (std::size_t i = 0; i < n; ++i) caps += n == 1 ? 0.0 : cap[i];
  for (std::size_t i = 0; i < n; ++i) {
    TransferMessage& message = *messages[i];
    const RankWork bound = first_only && i == 0 ? without_units(0, 1) : base;
    message.swap_id = swaps_[i].key.first;
    message.swap_home = swaps_[i].key.second;
    message.swap_after = after + (n == 1 ? 0.0 : caps - cap[i]);
    message.swap_cap = cap[i];
    message.swap_alpha = rank_.alpha_;
    message.swap_headroom = headroom[i];
    message.swap_blocks.working = bound.largest_working();
    for (const auto& [key, bytes] : bound.shared_blocks()) {
      message.swap_blocks.blocks.push_back(key.first);
      message.swap_blocks.blocks.push_back(key.second);
      message.swap_blocks.bytes.push_back(bytes);
      message.swap_blocks.loads.push_back(0.0);
    }
  }
}

}  // namespace tessera::lb::tempered
