// A TemperedLB rank's transfer stage as the sender (seed 003, Algorithm 2): TRANSFER in load or in
// work (measure.hpp) against the underloaded ranks it knows, and its proposals sent.

#include <map>

#include "measure.hpp"
#include "tempered_rank.hpp"
#include "work_measure.hpp"

namespace tessera::lb::tempered {

std::vector<Peer> TemperedRank::known_peers(std::vector<std::size_t>* at) {
  known_.settle();
  std::vector<Peer> peers;
  peers.reserve(known_.size());
  for (const std::size_t i : known_.rank_order()) {
    if (known_.ranks()[i] == rank_) continue;
    peers.push_back(Peer{known_.ranks()[i], known_.loads()[i]});
    if (at != nullptr) at->push_back(i);
  }
  return peers;
}

std::vector<Held> TemperedRank::take_accepted(const std::vector<Proposal>& accepted) {
  std::vector<Held> moving;
  moving.reserve(accepted.size());
  std::vector<bool> leaving(held_.size(), false);
  for (const Proposal& p : accepted) {
    moving.push_back(held_[p.object]);
    leaving[p.object] = true;
  }
  std::vector<Held> staying;
  staying.reserve(held_.size() - accepted.size());
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (!leaving[i]) staying.push_back(std::move(held_[i]));
  }
  held_ = std::move(staying);
  return moving;
}

template <class Sender>
void TemperedRank::send_proposals(comm::Communicator& ctx, Sender& sender, std::vector<Peer>& peers) {
  const double own = sender.value();
  Random random = stream(Stage::transfer, 0);
  const Decisions decided = transfer_over(sender, peers, shared_->average, *shared_->options, random);
  counts_.transfers = static_cast<std::int64_t>(decided.accepted.size());
  counts_.rejected = decided.rejected;
  counts_.rejected_memory = decided.rejected_memory;
  // Nothing could move alone (peers' values are unchanged): a heavy object for lighter ones back.
  if (decided.accepted.empty()) return offer_load_swap(ctx, own, peers);

  const std::vector<Held> moving = take_accepted(decided.accepted);
  std::map<Rank, TransferMessage> outgoing;  // ascending destination: a fixed send order
  for (std::size_t i = 0; i < moving.size(); ++i) {
    TransferMessage& message = outgoing[peers[decided.accepted[i].peer].rank];
    message.objects.push_back(moving[i]);
    message.sender_loads.push_back(decided.before[i]);
  }
  sender.finish(outgoing, peers);
  for (const auto& [dest, message] : outgoing) ctx.send(dest, shared_->proposal, message);
}

void TemperedRank::propose(comm::Communicator& ctx) {
  counts_ = Counts{};
  const double own = value();
  if (!(own > shared_->options->threshold * shared_->average)) return;
  std::vector<std::size_t> at;
  std::vector<Peer> peers = known_peers(&at);
  if (shared_->modeled) {
    WorkSender sender(*this, at);
    return send_proposals(ctx, sender, peers);
  }
  const std::vector<LbObject> objects = held_objects();
  LoadSender sender(objects, own, shared_->average, shared_->options->criterion);
  send_proposals(ctx, sender, peers);
}

}  // namespace tessera::lb::tempered
