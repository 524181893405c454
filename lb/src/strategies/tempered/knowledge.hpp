#pragma once
// What a TemperedLB rank knows of the underloaded ranks during an inform stage (seed 003,
// Algorithm 1): messages.hpp has the gossip it is merged from.

#include <cmath>
#include <cstdint>
#include <vector>

#include "messages.hpp"

namespace tessera::lb::tempered {

// S^p and LOAD^p of Algorithm 1: the underloaded ranks a rank heard of, with their loads, in the
// order it heard of them, plus a membership bitmap over all P ranks so that merging a message costs
// one bit test per entry (the gossip carries lists of up to P entries, P x fanout times a round).
//
// With a cap (the max_known key) a rank keeps only the `cap` entries of smallest priority, a hash
// of (salt, rank) with a salt of its own: a bottom-k sample of everything it heard of, uniform,
// different on every rank, and a function of the set heard of alone (merging bottom-k samples is
// commutative), so deterministic mode stays order-independent. The bitmap still marks every rank
// heard of: one dropped later is never added back, and gossip targets avoid it. Lists and
// messages then hold at most 2 cap entries instead of up to P, which is what keeps P = 16,384
// from costing P^2.
class Knowledge {
 public:
  void clear();
  // Clears and gives the memory back (lists and bitmap): for a rank whose knowledge will not be
  // read again this inform stage, so that the peak holds only the lists still to be read.
  void release();
  // 0: no cap. Set before the first add of an inform stage.
  void limit(std::size_t cap, std::uint64_t salt) {
    cap_ = cap;
    salt_ = salt;
  }
  // Reduces the lists to the bottom `cap` (a no-op without a cap or below it). Call before reading
  // ranks(), loads() or headroom() after adds.
  void settle() {
    if (cap_ != 0 && ranks_.size() > cap_) compact();
  }
  // Ranks heard of (kept or dropped).
  std::size_t seen() const { return seen_; }
  bool contains(Rank r) const {
    const auto i = static_cast<std::size_t>(r);
    return i / 64 < bits_.size() && (bits_[i / 64] >> (i % 64) & 1U) != 0;
  }
  // Adds r unless known. `ranks` is P, the size of the bitmap. Inline: the gossip calls it once
  // per entry of every message, hundreds of millions of times per iteration on 4096 ranks.
  void add(Rank r, double load, Rank ranks, double headroom = HUGE_VAL, const PeerBlocks* blocks = nullptr) {
    if (bits_.empty()) bits_.assign((static_cast<std::size_t>(ranks) + 63) / 64, 0);
    const auto i = static_cast<std::size_t>(r);
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    if ((bits_[i / 64] & bit) != 0) return;
    bits_[i / 64] |= bit;
    ++seen_;
    if (cap_ != 0) {
      // Above the cut of an earlier compaction: it can never be in the bottom cap again.
      const std::uint64_t priority = priority_of(r);
      if (priority > cut_) return;
      priorities_.push_back(priority);
    }
    ranks_.push_back(r);
    loads_.push_back(load);
    if (track_headroom_) headrooms_.push_back(headroom);
    if (track_blocks_) blocks_.push_back(blocks != nullptr ? *blocks : PeerBlocks{});
    if (cap_ != 0 && ranks_.size() >= 2 * cap_) compact();
  }
  // add() for every entry of a received message. Without cap and headrooms (the default keys) it
  // runs one loop over the message with the lists grown once, by at most half their size beyond
  // what the message can add, rather than a doubling.
  void merge(const GossipView& message, Rank ranks);
  // Headrooms are kept only under memory limits: without them they would add P^2 doubles over all
  // ranks for nothing. Set before the first add of an inform stage.
  void track_headroom(bool on) { track_headroom_ = on; }
  // The headroom of the i-th known rank, bytes (+inf when not tracked).
  double headroom(std::size_t i) const { return track_headroom_ ? headrooms_[i] : HUGE_VAL; }
  // Blocks are kept only when Shared::blocks says so. Set before the first add.
  void track_blocks(bool on) { track_blocks_ = on; }
  bool tracks_blocks() const { return track_blocks_; }
  // The i-th known rank's blocks (empty when not tracked).
  const PeerBlocks& blocks(std::size_t i) const {
    static const PeerBlocks none;
    return track_blocks_ ? blocks_[i] : none;
  }
  const std::vector<PeerBlocks>& all_blocks() const { return blocks_; }
  std::size_t size() const { return ranks_.size(); }
  const std::vector<Rank>& ranks() const { return ranks_; }
  const std::vector<double>& loads() const { return loads_; }
  const std::vector<double>& headrooms() const { return headrooms_; }
  // Indices into ranks() (and loads(), headroom()) in ascending rank order, read off the bitmap's
  // running popcounts instead of sorting: O(size + P / 64). Call after settle().
  std::vector<std::size_t> rank_order() const;
  // Up to `count` distinct ranks of [0, P) that are neither known nor `self`, drawn uniformly.
  std::vector<Rank> sample_unknown(Random& random, Rank ranks, Rank self, std::size_t count) const;

 private:
  std::vector<std::uint64_t> bits_;  // allocated on first add
  std::vector<Rank> ranks_;
  std::vector<double> loads_;
  std::vector<double> headrooms_;  // bytes each may still take, when tracked
  bool track_headroom_ = false;
  std::vector<PeerBlocks> blocks_;  // when tracked
  bool track_blocks_ = false;
  std::size_t seen_ = 0;
  std::size_t cap_ = 0;
  std::uint64_t salt_ = 0;
  std::uint64_t cut_ = ~std::uint64_t{0};  // largest priority kept by the last compaction
  std::vector<std::uint64_t> priorities_;  // of ranks_, when capped
  std::uint64_t priority_of(Rank r) const { return mix64(salt_ ^ mix64(static_cast<std::uint64_t>(r))); }
  void compact();  // keeps the bottom cap_ by priority, in the order heard of
};

}  // namespace tessera::lb::tempered
