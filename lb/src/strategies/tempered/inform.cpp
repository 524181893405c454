// The inform stage (seed 003, Algorithm 1): underloaded ranks gossip their loads.

#include <algorithm>
#include <cmath>

#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

void Knowledge::clear() {
  std::fill(bits_.begin(), bits_.end(), 0);
  ranks_.clear();
  loads_.clear();
  headrooms_.clear();
  priorities_.clear();
  cut_ = ~std::uint64_t{0};
  seen_ = 0;
}

void Knowledge::compact() {
  // Priorities are distinct with overwhelming probability (64-bit hashes of distinct ranks); a tie
  // at the cut would keep both, which is still a function of the set heard of.
  std::vector<std::uint64_t> order(priorities_);
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(cap_ - 1), order.end());
  cut_ = order[cap_ - 1];
  std::size_t kept = 0;
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    if (priorities_[i] > cut_) continue;
    ranks_[kept] = ranks_[i];
    loads_[kept] = loads_[i];
    priorities_[kept] = priorities_[i];
    if (track_headroom_) headrooms_[kept] = headrooms_[i];
    ++kept;
  }
  ranks_.resize(kept);
  loads_.resize(kept);
  priorities_.resize(kept);
  if (track_headroom_) headrooms_.resize(kept);
}

std::vector<Rank> Knowledge::sample_unknown(Random& random, Rank ranks, Rank self, std::size_t count) const {
  // LBAF's random.sample over P minus the known underloaded ranks (Algorithm 1, lines 15, 25-26).
  // Draws depend on the set only, never on the order it was learnt in.
  const std::size_t excluded = seen_ + (contains(self) ? 0 : 1);
  const std::size_t available = static_cast<std::size_t>(ranks) - excluded;
  count = std::min(count, available);
  std::vector<Rank> chosen;
  chosen.reserve(count);
  if (excluded * 2 <= static_cast<std::size_t>(ranks)) {
    // Mostly unknown: rejection needs fewer than two draws per rank on average.
    while (chosen.size() < count) {
      const Rank r = static_cast<Rank>(random.below(static_cast<std::uint64_t>(ranks)));
      if (r == self || contains(r) || std::find(chosen.begin(), chosen.end(), r) != chosen.end()) continue;
      chosen.push_back(r);
    }
    return chosen;
  }
  // Mostly known: draw from the explicit complement, in rank order (partial Fisher-Yates).
  std::vector<Rank> pool;
  pool.reserve(available);
  for (Rank r = 0; r < ranks; ++r) {
    if (r != self && !contains(r)) pool.push_back(r);
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(random.below(pool.size() - i));
    std::swap(pool[i], pool[j]);
    chosen.push_back(pool[i]);
  }
  return chosen;
}

void TemperedRank::reset_knowledge() {
  known_.clear();
  known_.track_headroom(shared_->limited);
  known_.limit(static_cast<std::size_t>(shared_->options->max_known),
               stream(Stage::knowledge, 0).bits());
  reached_round_ = 0;
  forwarded_.assign(static_cast<std::size_t>(shared_->rounds) + 1, false);
}

void TemperedRank::inform(comm::Context& ctx) {
  const double own = value();
  if (!(own < shared_->average)) return;
  known_.add(rank_, own, shared_->size, headroom());
  Random random = stream(Stage::inform, 0);
  send_gossip(ctx, 1, random);
}

void TemperedRank::forward_if_reached(comm::Context& ctx, int round) {
  if (reached_round_ != round || round >= shared_->rounds) return;
  Random random = stream(Stage::forward, static_cast<std::uint64_t>(round));
  send_gossip(ctx, round + 1, random);
}

void TemperedRank::report_underload(comm::Context& ctx) {
  const double own = value();
  if (own < shared_->average) ctx.send(0, shared_->underload, LoadReport{own, headroom()});
}

void TemperedRank::on_underload(comm::Context& ctx, const LoadReport& report) {
  // Loads by rank (+inf where not underloaded), then, with memory limits, headrooms by rank.
  const auto ranks = static_cast<std::size_t>(shared_->size);
  if (underloads_.empty()) underloads_.assign(shared_->limited ? 2 * ranks : ranks, HUGE_VAL);
  underloads_[static_cast<std::size_t>(ctx.source())] = report.load;
  if (shared_->limited) underloads_[ranks + static_cast<std::size_t>(ctx.source())] = report.headroom;
}

void TemperedRank::learn_all(const std::vector<double>& underloads) {
  known_.clear();
  if (!(value() > shared_->options->threshold * shared_->average)) return;
  const auto ranks = static_cast<std::size_t>(shared_->size);
  for (std::size_t r = 0; r < ranks && r < underloads.size(); ++r) {
    if (std::isfinite(underloads[r]))
      known_.add(static_cast<Rank>(r), underloads[r], shared_->size,
                 underloads.size() > ranks ? underloads[ranks + r] : HUGE_VAL);
  }
}

void TemperedRank::on_gossip(comm::Context& ctx, const GossipMessage& message) {
  // A rank's load does not change during an inform stage, so a rank heard of twice carries the
  // same load both times and the union does not depend on arrival order.
  if (static_cast<std::int64_t>(known_.seen()) < shared_->underloaded) {
    const bool headrooms = !message.headrooms.empty();
    for (std::size_t i = 0; i < message.ranks.size(); ++i)
      known_.add(message.ranks[i], message.loads[i], shared_->size, headrooms ? message.headrooms[i] : HUGE_VAL);
  }
  if (shared_->options->deterministic) {
    // Forwarding waits for the round's barrier (forward_if_reached): the union merged by then
    // does not depend on the order messages arrived in.
    reached_round_ = std::max(reached_round_, message.round);
    return;
  }
  const auto round = static_cast<std::size_t>(message.round);
  if (message.round >= shared_->rounds || forwarded_[round]) return;
  forwarded_[round] = true;
  Random random = stream(Stage::forward, round);
  send_gossip(ctx, message.round + 1, random);
}

void TemperedRank::send_gossip(comm::Context& ctx, int round, Random& random) {
  // Never back to a known underloaded rank, nor to itself.
  const auto targets = known_.sample_unknown(random, shared_->size, rank_,
                                             static_cast<std::size_t>(shared_->options->fanout));
  if (targets.empty()) return;
  known_.settle();
  const GossipMessage message{round, known_.ranks(), known_.loads(),
                              shared_->limited ? known_.headrooms() : std::vector<double>{}};
  ctx.send_to_many(std::span<const Rank>(targets), shared_->gossip, message);
}

}  // namespace tessera::lb::tempered
