// The inform stage (seed 003, Algorithm 1): underloaded ranks gossip their loads.

#include <algorithm>
#include <cmath>

#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

namespace {

// Up to `count` distinct ranks of [0, P) outside `excluded` (ascending), drawn uniformly: LBAF's
// random.sample over P minus the known underloaded ranks (Algorithm 1, lines 15 and 25-26).
std::vector<Rank> sample_outside(Random& random, Rank ranks, const std::vector<Rank>& excluded,
                                 std::size_t count) {
  const auto is_excluded = [&](Rank r) { return std::binary_search(excluded.begin(), excluded.end(), r); };
  const std::size_t available = static_cast<std::size_t>(ranks) - excluded.size();
  count = std::min(count, available);
  std::vector<Rank> chosen;
  chosen.reserve(count);
  if (excluded.size() * 2 <= static_cast<std::size_t>(ranks)) {
    // Mostly unknown: rejection needs fewer than two draws per rank on average.
    while (chosen.size() < count) {
      const Rank r = static_cast<Rank>(random.below(static_cast<std::uint64_t>(ranks)));
      if (is_excluded(r) || std::find(chosen.begin(), chosen.end(), r) != chosen.end()) continue;
      chosen.push_back(r);
    }
    return chosen;
  }
  // Mostly known: draw from the explicit complement (partial Fisher-Yates).
  std::vector<Rank> pool;
  pool.reserve(available);
  auto next_excluded = excluded.begin();
  for (Rank r = 0; r < ranks; ++r) {
    if (next_excluded != excluded.end() && *next_excluded == r) {
      ++next_excluded;
      continue;
    }
    pool.push_back(r);
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(random.below(pool.size() - i));
    std::swap(pool[i], pool[j]);
    chosen.push_back(pool[i]);
  }
  return chosen;
}

}  // namespace

void TemperedRank::reset_knowledge() {
  known_ranks_.clear();
  known_loads_.clear();
  reached_round_ = 0;
  forwarded_.assign(static_cast<std::size_t>(shared_->rounds) + 1, false);
}

void TemperedRank::inform(comm::Context& ctx) {
  const double own = load();
  if (!(own < shared_->average)) return;
  merge({rank_}, {own});
  Random random = stream(Stage::inform, 0);
  send_gossip(ctx, 1, random);
}

void TemperedRank::forward_if_reached(comm::Context& ctx, int round) {
  if (reached_round_ != round || round >= shared_->rounds) return;
  Random random = stream(Stage::forward, static_cast<std::uint64_t>(round));
  send_gossip(ctx, round + 1, random);
}

void TemperedRank::report_underload(comm::Context& ctx) {
  const double own = load();
  if (own < shared_->average) ctx.send(0, shared_->underload, LoadReport{own});
}

void TemperedRank::on_underload(comm::Context& ctx, const LoadReport& report) {
  if (underloads_.empty()) underloads_.assign(static_cast<std::size_t>(shared_->size), HUGE_VAL);
  underloads_[static_cast<std::size_t>(ctx.source())] = report.load;
}

void TemperedRank::learn_all(const std::vector<double>& underloads) {
  known_ranks_.clear();
  known_loads_.clear();
  if (!(load() > shared_->options->threshold * shared_->average)) return;
  for (std::size_t r = 0; r < underloads.size(); ++r) {
    if (std::isfinite(underloads[r])) {
      known_ranks_.push_back(static_cast<Rank>(r));
      known_loads_.push_back(underloads[r]);
    }
  }
}

void TemperedRank::on_gossip(comm::Context& ctx, const GossipMessage& message) {
  merge(message.ranks, message.loads);
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
  std::vector<Rank> excluded = known_ranks_;
  const auto at = std::lower_bound(excluded.begin(), excluded.end(), rank_);
  if (at == excluded.end() || *at != rank_) excluded.insert(at, rank_);
  const auto targets = sample_outside(random, shared_->size, excluded,
                                      static_cast<std::size_t>(shared_->options->fanout));
  if (targets.empty()) return;
  GossipMessage message{round, known_ranks_, known_loads_};
  for (Rank target : targets) ctx.send(target, shared_->gossip, message);
}

void TemperedRank::merge(const std::vector<Rank>& ranks, const std::vector<double>& loads) {
  // Both lists ascending: a linear merge keeps S^p sorted. A rank's load does not change during
  // an inform stage, so a rank heard of twice carries the same load both times.
  std::vector<Rank> merged_ranks;
  std::vector<double> merged_loads;
  merged_ranks.reserve(known_ranks_.size() + ranks.size());
  merged_loads.reserve(known_ranks_.size() + ranks.size());
  std::size_t i = 0, j = 0;
  while (i < known_ranks_.size() || j < ranks.size()) {
    if (j == ranks.size() || (i < known_ranks_.size() && known_ranks_[i] < ranks[j])) {
      merged_ranks.push_back(known_ranks_[i]);
      merged_loads.push_back(known_loads_[i++]);
    } else if (i == known_ranks_.size() || ranks[j] < known_ranks_[i]) {
      merged_ranks.push_back(ranks[j]);
      merged_loads.push_back(loads[j++]);
    } else {
      merged_ranks.push_back(known_ranks_[i]);
      merged_loads.push_back(known_loads_[i++]);
      ++j;
    }
  }
  known_ranks_ = std::move(merged_ranks);
  known_loads_ = std::move(merged_loads);
}

}  // namespace tessera::lb::tempered
