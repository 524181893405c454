// A TemperedLB rank: proposals, arrivals and the final plan (seed 003, Algorithms 2 and 3).

#include "tempered_rank.hpp"

#include <algorithm>
#include <iterator>
#include <map>

namespace tessera::lb::tempered {

TemperedRank::TemperedRank(const Shared& shared, const StrategyInput& input)
    : shared_(&shared),
      rank_(input.rank),
      input_(&input),
      alpha_(shared.options->work.alpha_of(input)),
      limit_(shared.options->work.limit_of(input)) {
  start_.reserve(input.objects.size());
  for (const auto& object : input.objects) start_.push_back(Held{object, input.rank, {}});
  held_ = start_;
  best_ = start_;
}

double TemperedRank::load() const {
  double sum = 0.0;
  for (const auto& held : held_) sum += held.object.load;
  return sum;
}

Random TemperedRank::stream(Stage stage, std::uint64_t round) const {
  return Random({shared_->options->seed, shared_->trial, shared_->iteration,
                 static_cast<std::uint64_t>(stage), static_cast<std::uint64_t>(rank_), round});
}

std::vector<Peer> TemperedRank::known_peers() {
  known_.settle();
  std::vector<Peer> peers;
  peers.reserve(known_.size());
  for (const std::size_t i : known_.rank_order()) {
    if (known_.ranks()[i] != rank_) peers.push_back(Peer{known_.ranks()[i], known_.loads()[i]});
  }
  return peers;
}

std::vector<Held> TemperedRank::take_accepted(const TransferOutcome& outcome) {
  std::vector<Held> moving;
  moving.reserve(outcome.accepted.size());
  std::vector<bool> leaving(held_.size(), false);
  for (const auto& p : outcome.accepted) {
    moving.push_back(held_[p.object]);
    leaving[p.object] = true;
  }
  std::vector<Held> staying;
  staying.reserve(held_.size() - outcome.accepted.size());
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (!leaving[i]) staying.push_back(held_[i]);
  }
  held_ = std::move(staying);
  return moving;
}

void TemperedRank::propose(comm::Communicator& ctx) {
  transfers_ = 0;
  rejected_ = 0;
  rejected_memory_ = 0;
  swaps_ = 0;
  if (shared_->modeled) return propose_modeled(ctx);
  const double own = load();
  if (!(own > shared_->options->threshold * shared_->average)) return;
  std::vector<Peer> peers = known_peers();
  std::vector<LbObject> objects;
  objects.reserve(held_.size());
  for (const auto& held : held_) objects.push_back(held.object);
  Random random = stream(Stage::transfer, 0);
  const TransferOutcome outcome =
      transfer(objects, own, shared_->average, peers, *shared_->options, random);
  transfers_ = static_cast<std::int64_t>(outcome.accepted.size());
  rejected_ = outcome.rejected;
  // Nothing could move alone (peers' loads are unchanged): a heavy object for lighter ones back.
  if (outcome.accepted.empty()) return offer_load_swap(ctx, own, peers);

  const std::vector<Held> moving = take_accepted(outcome);
  std::map<Rank, TransferMessage> outgoing;  // ascending destination: a fixed send order
  double deciding = own;  // l_p when each object was decided: own load less what left before it
  for (std::size_t i = 0; i < moving.size(); ++i) {
    TransferMessage& message = outgoing[peers[outcome.accepted[i].peer].rank];
    message.objects.push_back(moving[i]);
    message.sender_loads.push_back(deciding);
    deciding -= moving[i].object.load;
  }
  for (const auto& [dest, message] : outgoing) ctx.send(dest, shared_->proposal, message);
}

void TemperedRank::take_turn(comm::Communicator& ctx, TurnToken token) {
  transfers_ = 0;
  rejected_ = 0;
  const auto ranks = static_cast<std::size_t>(shared_->size);
  if (token.change.empty()) token.change.assign(ranks, 0.0);
  // Objects given to this rank in earlier turns are its own now: it may pass them on.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < token.pending.size(); ++i) {
    if (token.pending_to[i] == rank_) {
      held_.push_back(token.pending[i]);
    } else {
      token.pending_to[kept] = token.pending_to[i];
      token.pending[kept++] = std::move(token.pending[i]);
    }
  }
  token.pending_to.resize(kept);
  token.pending.resize(kept);

  const double own = load();
  if (own > shared_->options->threshold * shared_->average) {
    std::vector<Peer> peers = known_peers();
    std::vector<double> current(peers.size());
    // Loads do not change during the inform stage, so gossiped load + change is the load now.
    for (std::size_t i = 0; i < peers.size(); ++i) {
      current[i] = peers[i].load + token.change[static_cast<std::size_t>(peers[i].rank)];
    }
    std::vector<LbObject> objects;
    objects.reserve(held_.size());
    for (const auto& held : held_) objects.push_back(held.object);
    Random random = stream(Stage::transfer, 0);
    const TransferOutcome outcome =
        transfer_in_turn(objects, own, shared_->average, peers, current, *shared_->options, random);
    transfers_ = static_cast<std::int64_t>(outcome.accepted.size());
    rejected_ = outcome.rejected;
    const std::vector<Held> moving = take_accepted(outcome);
    std::map<Rank, TransferMessage> behind;  // ranks whose turn is over take theirs at the end
    for (std::size_t i = 0; i < moving.size(); ++i) {
      const Rank dest = peers[outcome.accepted[i].peer].rank;
      token.change[static_cast<std::size_t>(dest)] += moving[i].object.load;
      token.change[static_cast<std::size_t>(rank_)] -= moving[i].object.load;
      if (dest > rank_) {
        token.pending_to.push_back(dest);
        token.pending.push_back(moving[i]);
      } else {
        behind[dest].objects.push_back(moving[i]);
      }
    }
    for (const auto& [dest, message] : behind) ctx.send(dest, shared_->proposal, message);
  }
  if (rank_ + 1 < shared_->size) ctx.send(rank_ + 1, shared_->turn, token);
}

void TemperedRank::on_proposal(comm::Communicator& ctx, const TransferMessage& message) {
  arrivals_.emplace_back(ctx.source(), message);
}

void TemperedRank::accept_arrivals(comm::Communicator& ctx) {
  // One message per (sender, receiver) per iteration, so the sender alone fixes the order.
  std::stable_sort(arrivals_.begin(), arrivals_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const TemperedOptions& options = *shared_->options;
  if (shared_->modeled) return admit_modeled(ctx);
  // Swap offers are judged after the plain proposals, against the load those leave here.
  const auto plain = std::stable_partition(arrivals_.begin(), arrivals_.end(),
                                           [](const auto& arrival) { return !arrival.second.offer; });
  std::vector<std::pair<Rank, TransferMessage>> offers(std::make_move_iterator(plain),
                                                       std::make_move_iterator(arrivals_.end()));
  arrivals_.erase(plain, arrivals_.end());
  std::map<Rank, TransferMessage> back;
  const auto answer = [&] {
    if (!offers.empty()) admit_load_swaps(offers, back);
    for (const auto& [source, message] : back) {
      if (!message.objects.empty()) ctx.send(source, shared_->returned, message);
    }
  };
  if (options.admit == TemperedOptions::Admit::all || options.transfer == TemperedOptions::Transfer::sequential) {
    for (auto& [source, message] : arrivals_) held_.insert(held_.end(), message.objects.begin(), message.objects.end());
    arrivals_.clear();
    return answer();
  }
  double own = load();
  for (const Candidate& c : candidates()) {
    const Held& held = arrivals_[c.message].second.objects[c.index];
    if (criterion_holds(options.criterion, own, held.object.load, shared_->average, c.sender_load)) {
      own += held.object.load;
      held_.push_back(held);
    } else {
      back[c.source].objects.push_back(held);
      ++rejected_;
      --transfers_;  // counted as accepted by the sender, undone here: totals stay gross moves
    }
  }
  arrivals_.clear();
  answer();
}

std::vector<TemperedRank::Candidate> TemperedRank::candidates() const {
  std::vector<Candidate> out;
  for (std::size_t m = 0; m < arrivals_.size(); ++m) {
    const TransferMessage& message = arrivals_[m].second;
    for (std::size_t i = 0; i < message.objects.size(); ++i)
      out.push_back(Candidate{i < message.sender_loads.size() ? message.sender_loads[i] : 0.0, arrivals_[m].first, m, i});
  }
  // Most loaded sender first (it gains most from being admitted); ties by rank, then by the
  // sender's own order, so the decision is a function of the proposals alone.
  std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    return a.sender_load != b.sender_load ? a.sender_load > b.sender_load : a.source < b.source;
  });
  return out;
}

void TemperedRank::on_returned(comm::Communicator& ctx, const TransferMessage& message) {
  returns_.emplace_back(ctx.source(), message.objects);
}

void TemperedRank::take_returns() {
  std::stable_sort(returns_.begin(), returns_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [source, objects] : returns_) held_.insert(held_.end(), objects.begin(), objects.end());
  returns_.clear();
}

void TemperedRank::send_plan(comm::Communicator& ctx) {
  std::map<Rank, PlanMessage> outgoing;
  for (const auto& held : best_) {
    if (held.origin != rank_) {
      outgoing[held.origin].moves.push_back(Migration{held.object.id, held.origin, rank_});
    }
  }
  for (const auto& [origin, message] : outgoing) ctx.send(origin, shared_->plan, message);
}

void TemperedRank::on_plan(comm::Communicator&, const PlanMessage& message) {
  plan_.insert(plan_.end(), message.moves.begin(), message.moves.end());
}

}  // namespace tessera::lb::tempered
