// A TemperedLB rank's transfer stage as the receiver: the proposals that arrived, admitted in load
// or in work (measure.hpp), what it refuses sent back, and what came back to it as a sender.

#include <algorithm>
#include <iterator>
#include <map>

#include "measure.hpp"
#include "tempered_rank.hpp"
#include "work_measure.hpp"

namespace tessera::lb::tempered {

void TemperedRank::on_proposal(comm::Communicator& ctx, const TransferMessage& message) {
  arrivals_.emplace_back(ctx.source(), message);
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

template <class Receiver>
void TemperedRank::admit_each(Receiver& receiver, std::map<Rank, TransferMessage>& back) {
  if (receiver.takes_all()) {
    for (auto& [source, message] : arrivals_) held_.insert(held_.end(), message.objects.begin(), message.objects.end());
    return;
  }
  std::vector<bool> unit_done(arrivals_.size(), false);
  for (const Candidate& c : candidates()) {
    TransferMessage& message = arrivals_[c.message].second;
    Held& held = message.objects[c.index];
    if constexpr (Receiver::clusters) {
      if (message.swap_id >= 0 && held.object.memory.shared_id == message.swap_id && held.origin == message.swap_home) {
        // A swap's unit is decided whole when its first object comes up (its sender's largest work).
        if (!unit_done[c.message]) receiver.admit_unit(message, c.source, c.sender_load, back[c.source].objects);
        unit_done[c.message] = true;
        continue;
      }
    }
    bool admit = true;
    if (!receiver.has_room(held)) {
      ++counts_.rejected_memory;
      admit = false;
    } else if (!receiver.accepts(held, c.sender_load)) {
      ++counts_.rejected;
      admit = false;
    }
    if (admit) {
      receiver.take(held);
      held_.push_back(std::move(held));
    } else {
      back[c.source].objects.push_back(std::move(held));
      --counts_.transfers;  // counted as accepted by the sender, undone here: totals stay gross moves
    }
  }
}

void TemperedRank::accept_arrivals(comm::Communicator& ctx) {
  // One message per (sender, receiver) per iteration, so the sender alone fixes the order.
  std::stable_sort(arrivals_.begin(), arrivals_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // Swap offers are judged after the plain proposals, against the load those leave here.
  const auto plain = std::stable_partition(arrivals_.begin(), arrivals_.end(),
                                           [](const auto& arrival) { return !arrival.second.offer; });
  std::vector<std::pair<Rank, TransferMessage>> offers(std::make_move_iterator(plain),
                                                       std::make_move_iterator(arrivals_.end()));
  arrivals_.erase(plain, arrivals_.end());
  std::map<Rank, TransferMessage> back;
  if (shared_->modeled) {
    WorkReceiver receiver(*this);
    admit_each(receiver, back);
  } else {
    LoadReceiver receiver(load(), *shared_->options, shared_->average);
    admit_each(receiver, back);
  }
  arrivals_.clear();
  if (!offers.empty()) admit_load_swaps(offers, back);
  for (const auto& [source, message] : back) {
    if (!message.objects.empty()) ctx.send(source, shared_->returned, message);
  }
}

void TemperedRank::on_returned(comm::Communicator& ctx, const TransferMessage& message) {
  returns_.emplace_back(ctx.source(), message.objects);
}

void TemperedRank::take_returns() {
  std::stable_sort(returns_.begin(), returns_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [source, objects] : returns_) held_.insert(held_.end(), objects.begin(), objects.end());
  returns_.clear();
}

}  // namespace tessera::lb::tempered
