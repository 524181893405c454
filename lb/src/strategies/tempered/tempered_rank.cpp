// A TemperedLB rank: its proposals, the sequential transfer's turn and the final plan (seed 003,
// Algorithms 2 and 3); propose.cpp and admit.cpp have the distributed transfer stage.

#include "tempered_rank.hpp"

#include <algorithm>

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

double TemperedRank::largest_object() const {
  double largest = 0.0;
  for (const auto& held : held_) largest = std::max(largest, held.object.load);
  return largest;
}

std::vector<LbObject> TemperedRank::held_objects() const {
  std::vector<LbObject> objects;
  objects.reserve(held_.size());
  for (const Held& held : held_) objects.push_back(held.object);
  return objects;
}

Random TemperedRank::stream(Stage stage, std::uint64_t round) const {
  return Random({shared_->options->seed, shared_->trial, shared_->iteration,
                 static_cast<std::uint64_t>(stage), static_cast<std::uint64_t>(rank_), round});
}

void TemperedRank::take_turn(comm::Communicator& ctx, TurnToken token) {
  counts_ = Counts{};
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
    Random random = stream(Stage::transfer, 0);
    const TransferOutcome outcome =
        transfer_in_turn(held_objects(), own, shared_->average, peers, current, *shared_->options, random);
    counts_.transfers = static_cast<std::int64_t>(outcome.accepted.size());
    counts_.rejected = outcome.rejected;
    const std::vector<Held> moving = take_accepted(outcome.accepted);
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
