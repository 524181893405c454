// The inform stage (seed 003, Algorithm 1): underloaded ranks gossip their loads.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

GossipView::GossipView(std::span<const std::byte> bytes) : encoding_(bytes) {
  std::size_t at = 0;
  const auto take = [&](void* into, std::size_t size) {
    if (size > bytes.size() - at) throw std::out_of_range("GossipMessage payload truncated");
    std::memcpy(into, bytes.data() + at, size);
    at += size;
  };
  // A vector's elements: where they start, after checking they all lie inside the payload.
  const auto elements = [&](std::size_t width, std::size_t& count) {
    std::uint64_t n = 0;
    take(&n, sizeof n);
    if (n > (bytes.size() - at) / width) throw std::out_of_range("GossipMessage payload truncated");
    count = static_cast<std::size_t>(n);
    const std::byte* start = bytes.data() + at;
    at += count * width;
    return start;
  };
  take(&round_, sizeof round_);
  std::size_t loads = 0, headrooms = 0;
  ranks_ = elements(sizeof(Rank), size_);
  loads_ = elements(sizeof(double), loads);
  headrooms_ = elements(sizeof(double), headrooms);
  if (headrooms == 0) headrooms_ = nullptr;
  if (loads != size_ || (headrooms != 0 && headrooms != size_)) throw std::out_of_range("GossipMessage payload malformed");
  if (at == bytes.size()) return;  // no block tail
  std::size_t working = 0, counts = 0, flat = 0, sizes = 0, loads_of = 0;
  working_ = elements(sizeof(double), working);
  counts_ = elements(sizeof(std::uint32_t), counts);
  blocks_ = elements(sizeof(std::int64_t), flat);
  bytes_ = elements(sizeof(double), sizes);
  block_loads_ = elements(sizeof(double), loads_of);
  if (working != size_ || counts != size_ || at != bytes.size()) throw std::out_of_range("GossipMessage payload malformed");
  block_start_.resize(size_ + 1, 0);
  for (std::size_t i = 0; i < size_; ++i) block_start_[i + 1] = block_start_[i] + element<std::uint32_t>(counts_, i);
  if (2 * block_start_[size_] != flat || block_start_[size_] != sizes || sizes != loads_of)
    throw std::out_of_range("GossipMessage payload malformed");
}

PeerBlocks GossipView::blocks(std::size_t i) const {
  PeerBlocks out;
  out.working = element<double>(working_, i);
  for (std::size_t j = block_start_[i]; j < block_start_[i + 1]; ++j) {
    out.blocks.push_back(element<std::int64_t>(blocks_, 2 * j));
    out.blocks.push_back(element<std::int64_t>(blocks_, 2 * j + 1));
    out.bytes.push_back(element<double>(bytes_, j));
    out.loads.push_back(element<double>(block_loads_, j));
  }
  return out;
}

void Knowledge::clear() {
  std::fill(bits_.begin(), bits_.end(), 0);
  ranks_.clear();
  loads_.clear();
  headrooms_.clear();
  blocks_.clear();
  priorities_.clear();
  cut_ = ~std::uint64_t{0};
  seen_ = 0;
}

void Knowledge::merge(const GossipView& message, Rank ranks) {
  const std::size_t n = message.size();
  if (cap_ != 0 || track_headroom_ || track_blocks_) {
    const bool headrooms = message.has_headrooms();
    const bool blocks = track_blocks_ && message.has_blocks();
    for (std::size_t i = 0; i < n; ++i) {
      const Rank r = message.rank(i);
      if (contains(r)) continue;
      const PeerBlocks peer = blocks ? message.blocks(i) : PeerBlocks{};
      add(r, message.load(i), ranks, headrooms ? message.headroom(i) : HUGE_VAL, &peer);
    }
    return;
  }
  if (bits_.empty()) bits_.assign((static_cast<std::size_t>(ranks) + 63) / 64, 0);
  const std::size_t before = ranks_.size();
  if (ranks_.capacity() < before + n) {
    const std::size_t room = std::max(before + n, before + before / 2);
    ranks_.reserve(room);
    loads_.reserve(room);
  }
  // Written in place past the old ends, then cut back to what was new.
  ranks_.resize(before + n);
  loads_.resize(before + n);
  std::uint64_t* bits = bits_.data();
  Rank* known = ranks_.data();
  double* loads = loads_.data();
  std::size_t size = before;
  for (std::size_t i = 0; i < n; ++i) {
    const Rank r = message.rank(i);
    const auto at = static_cast<std::size_t>(r);
    const std::uint64_t bit = std::uint64_t{1} << (at % 64);
    if ((bits[at / 64] & bit) != 0) continue;
    bits[at / 64] |= bit;
    known[size] = r;
    loads[size] = message.load(i);
    ++size;
  }
  seen_ += size - before;
  ranks_.resize(size);
  loads_.resize(size);
}

void Knowledge::release() {
  clear();
  std::vector<std::uint64_t>().swap(bits_);
  std::vector<Rank>().swap(ranks_);
  std::vector<double>().swap(loads_);
  std::vector<double>().swap(headrooms_);
  std::vector<PeerBlocks>().swap(blocks_);
  std::vector<std::uint64_t>().swap(priorities_);
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
    if (track_blocks_) blocks_[kept] = std::move(blocks_[i]);
    ++kept;
  }
  ranks_.resize(kept);
  loads_.resize(kept);
  priorities_.resize(kept);
  if (track_headroom_) headrooms_.resize(kept);
  if (track_blocks_) blocks_.resize(kept);
}

std::vector<std::size_t> Knowledge::rank_order() const {
  std::vector<std::size_t> before(bits_.size());  // ranks heard of in earlier words
  std::size_t heard = 0;
  for (std::size_t w = 0; w < bits_.size(); ++w) {
    before[w] = heard;
    heard += static_cast<std::size_t>(std::popcount(bits_[w]));
  }
  constexpr std::size_t empty = ~std::size_t{0};
  std::vector<std::size_t> slot(heard, empty);
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    const auto r = static_cast<std::size_t>(ranks_[i]);
    const std::uint64_t below = (std::uint64_t{1} << (r % 64)) - 1;
    slot[before[r / 64] + static_cast<std::size_t>(std::popcount(bits_[r / 64] & below))] = i;
  }
  // Under a cap the bitmap also marks the ranks dropped: their slots stay empty.
  std::erase(slot, empty);
  return slot;
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
  // The same test as propose's (the load does not change before it); with transfer=sequential a
  // rank's load changes during the turns, so every rank may transfer.
  transferring_ = shared_->options->transfer == TemperedOptions::Transfer::sequential ||
                  value() > shared_->options->threshold * shared_->average;
  // Last iteration's lists go back unless this rank transfers again (then they are reused).
  if (transferring_) {
    known_.clear();
  } else {
    known_.release();
  }
  known_.track_headroom(shared_->limited);
  known_.track_blocks(shared_->blocks);
  // The salt of the bottom-k sample, drawn only under a cap (no stream to seed otherwise).
  const auto cap = static_cast<std::size_t>(shared_->options->max_known);
  known_.limit(cap, cap != 0 ? stream(Stage::knowledge, 0).bits() : 0);
  reached_round_ = 0;
  stepped_ = -1;
  early_.clear();
  forwarded_.assign(static_cast<std::size_t>(shared_->rounds) + 1, false);
  forwards_left_ = std::max(0, shared_->rounds - 1);
}

bool TemperedRank::knowledge_read_later(int round) const {
  if (transferring_) return true;
  // Synchronous rounds: a message of round r is read by the forward of step r, if r < k.
  if (shared_->options->deterministic) return round < shared_->rounds;
  // Asynchronous: any round not forwarded yet may still come (in any order on a live job).
  return forwards_left_ > 0;
}

void TemperedRank::inform(comm::Communicator& ctx) {
  const double own = value();
  if (own < shared_->average) {
    const PeerBlocks blocks = shared_->blocks ? own_blocks() : PeerBlocks{};
    known_.add(rank_, own, shared_->size, headroom(), &blocks);
    Random random = stream(Stage::inform, 0);
    send_gossip(ctx, 1, random);
  }
  if (shared_->options->deterministic) end_step(ctx, 0);
}

void TemperedRank::forward_if_reached(comm::Communicator& ctx, int round) {
  if (reached_round_ == round && round < shared_->rounds) {
    Random random = stream(Stage::forward, static_cast<std::uint64_t>(round));
    send_gossip(ctx, round + 1, random);
  }
  end_step(ctx, round);
}

void TemperedRank::end_step(comm::Communicator& ctx, int round) {
  stepped_ = round;
  std::vector<std::vector<std::byte>> later;
  for (std::vector<std::byte>& bytes : early_) {
    const GossipView message(bytes);
    if (message.round() <= stepped_ + 1) absorb(ctx, message);
    else later.push_back(std::move(bytes));
  }
  early_ = std::move(later);
}

void TemperedRank::report_underload(comm::Communicator& ctx) {
  const double own = value();
  if (own < shared_->average)
    ctx.send(0, shared_->underload, LoadReport{own, headroom(), shared_->blocks ? own_blocks() : PeerBlocks{}});
}

void TemperedRank::on_underload(comm::Communicator& ctx, const LoadReport& report) {
  // Loads by rank (+inf where not underloaded), then, with memory limits, headrooms by rank.
  const auto ranks = static_cast<std::size_t>(shared_->size);
  if (underloads_.empty()) underloads_.assign(shared_->limited ? 2 * ranks : ranks, HUGE_VAL);
  underloads_[static_cast<std::size_t>(ctx.source())] = report.load;
  if (shared_->limited) underloads_[ranks + static_cast<std::size_t>(ctx.source())] = report.headroom;
  if (shared_->blocks) {
    if (underload_blocks_.empty()) underload_blocks_.resize(ranks);
    underload_blocks_[static_cast<std::size_t>(ctx.source())] = report.blocks;
  }
}

void TemperedRank::learn_all(const std::vector<double>& underloads, const std::vector<PeerBlocks>& blocks) {
  known_.clear();
  if (!(value() > shared_->options->threshold * shared_->average)) return;
  const auto ranks = static_cast<std::size_t>(shared_->size);
  for (std::size_t r = 0; r < ranks && r < underloads.size(); ++r) {
    if (std::isfinite(underloads[r]))
      known_.add(static_cast<Rank>(r), underloads[r], shared_->size,
                 underloads.size() > ranks ? underloads[ranks + r] : HUGE_VAL, r < blocks.size() ? &blocks[r] : nullptr);
  }
}

void TemperedRank::on_gossip(comm::Communicator& ctx, const GossipView& message) {
  if (shared_->options->deterministic && message.round() > stepped_ + 1) {
    early_.emplace_back(message.bytes().begin(), message.bytes().end());
    return;
  }
  absorb(ctx, message);
}

void TemperedRank::absorb(comm::Communicator& ctx, const GossipView& message) {
  // A rank's load does not change during an inform stage, so a rank heard of twice carries the
  // same load both times and the union does not depend on arrival order.
  const std::int32_t heard = message.round();
  if (!knowledge_read_later(heard)) {
    known_.release();
  } else if (static_cast<std::int64_t>(known_.seen()) < shared_->underloaded) {
    known_.merge(message, shared_->size);
  }
  if (shared_->options->deterministic) {
    // Forwarding waits for the round's barrier (forward_if_reached): the union merged by then
    // does not depend on the order messages arrived in.
    reached_round_ = std::max(reached_round_, heard);
    return;
  }
  const auto round = static_cast<std::size_t>(heard);
  if (heard >= shared_->rounds || forwarded_[round]) return;
  forwarded_[round] = true;
  --forwards_left_;
  Random random = stream(Stage::forward, round);
  send_gossip(ctx, heard + 1, random);
  if (!knowledge_read_later(heard)) known_.release();
}

void TemperedRank::send_gossip(comm::Communicator& ctx, int round, Random& random) {
  // Never back to a known underloaded rank, nor to itself.
  const auto targets = known_.sample_unknown(random, shared_->size, rank_,
                                             static_cast<std::size_t>(shared_->options->fanout));
  if (targets.empty()) return;
  known_.settle();
  // Headrooms are tracked (and so not empty) only under memory limits.
  ctx.send_encoded_to_many(std::span<const Rank>(targets), shared_->gossip,
                           GossipMessage::encode(round, known_.ranks(), known_.loads(), known_.headrooms(),
                                                 known_.tracks_blocks() ? &known_.all_blocks() : nullptr));
}

}  // namespace tessera::lb::tempered
