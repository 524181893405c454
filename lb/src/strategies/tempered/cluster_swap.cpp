// Cluster swaps under memory limits: the receiving side of TemperedLB's work-model transfer
// (work_mode.cpp proposes them).
//
// Source: Pebay et al., "CCM-LB" (communication- and memory-constrained load balancing, Sandia
// report, 2023), as LBAF's InformAndTransfer with clustering runs it: objects of one rank that
// share a memory block form a cluster, and when a transfer to a peer would break the peer's
// memory limit, the peer may give back one of its own clusters so that both blocks change places.
// Where we differ: LBAF's transfer is sequential and reads every rank's clusters directly, and
// it swaps whole clusters (or subclusters) on both sides. Here the sender decides from what the
// peer gossiped (its blocks, their bytes and their clusters' loads), may propose one swap per
// iteration, and its side of the swap is the objects of one block it chose to send (a whole
// cluster or part of it, as the transfer stage's ordering gave them); the receiver then picks the
// cluster to give back against its exact work and memory, and against the sender's memory bound
// carried in the proposal, so no memory limit is ever broken on either side.

#include <algorithm>
#include <map>

#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

bool TemperedRank::admit_swap(RankWork& state, TransferMessage& message, Rank source, double sender_work,
                              std::vector<Held>& back) {
  const TemperedOptions& options = *shared_->options;
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
    for (Held* held : unit) held_.push_back(std::move(*held));
  };

  // Room without a swap (another sender's swap may have made it): the unit alone.
  if (const RankWork alone = with_unit(state); alone.memory() <= limit_) {
    const bool fits = grapevine ? alone.work() < shared_->average : alone.work() < sender_work;
    if (fits) {
      state = alone;
      take_unit();
      return true;
    }
  }

  // This rank's clusters, by block key (a fixed order), other than the unit's block.
  std::map<std::pair<std::int64_t, Rank>, std::vector<std::size_t>> clusters;
  for (std::size_t i = 0; i < held_.size(); ++i) {
    const ObjectMemory& m = held_[i].object.memory;
    if (m.shared_id >= 0 && !(m.shared_id == message.swap_id && held_[i].origin == message.swap_home))
      clusters[{m.shared_id, held_[i].origin}].push_back(i);
  }
  const PeerBlocks& sender = message.swap_blocks;
  const std::vector<std::size_t>* chosen = nullptr;
  RankWork chosen_state = state;
  double chosen_worst = HUGE_VAL;
  for (const auto& [key, members] : clusters) {
    // What the cluster adds to the sender's memory (against its bound) and to its work.
    double load = 0.0, footprint = 0.0, working = 0.0, volume = 0.0;
    for (const std::size_t i : members) {
      const Held& held = held_[i];
      load += held.object.load;
      footprint += held.object.memory.footprint_bytes;
      working = std::max(working, held.object.memory.working_bytes);
      for (const HalfEdge& e : held.edges) volume += e.bytes;
    }
    const double bytes = held_[members.front()].object.memory.shared_bytes;
    const bool block_at_sender = sender.holds(key.first, key.second);
    const double adds = footprint + std::max(0.0, working - sender.working) + (block_at_sender ? 0.0 : bytes);
    if (adds > message.swap_headroom) continue;
    RankWork trial = state;
    for (const std::size_t i : members) trial.remove(held_[i].object, held_[i].edges, held_[i].origin);
    trial = with_unit(std::move(trial));
    if (trial.memory() > limit_) continue;
    // The sender's work is bounded from above: every byte of the cluster's edges off its rank.
    const double sender_after = message.swap_after + message.swap_alpha * load + model.beta * volume +
                                model.delta * (key.second != source && !block_at_sender ? bytes : 0.0);
    const double worst = std::max(trial.work(), sender_after);
    const bool fits = grapevine ? trial.work() < shared_->average && sender_after < sender_work : worst < sender_work;
    if (fits && worst < chosen_worst) {
      chosen = &members;
      chosen_state = std::move(trial);
      chosen_worst = worst;
    }
  }
  if (chosen == nullptr) {
    for (Held* held : unit) back.push_back(std::move(*held));
    rejected_memory_ += static_cast<std::int64_t>(unit.size());
    transfers_ -= static_cast<std::int64_t>(unit.size());  // counted by the sender, undone here
    return false;
  }
  std::vector<bool> leaving(held_.size(), false);
  for (const std::size_t i : *chosen) leaving[i] = true;
  std::vector<Held> staying;
  staying.reserve(held_.size());
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (leaving[i]) {
      back.push_back(std::move(held_[i]));
      ++transfers_;
    } else {
      staying.push_back(std::move(held_[i]));
    }
  }
  held_ = std::move(staying);
  state = std::move(chosen_state);
  take_unit();
  return true;
}

}  // namespace tessera::lb::tempered
