#pragma once
// What a TemperedLB rank knows of the underloaded ranks during an inform stage (seed 003,
// Algorithm 1): messages.hpp has the gossip it is merged from.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "messages.hpp"

namespace tessera::lb::tempered {

// S^p and LOAD^p of Algorithm 1: the underloaded ranks a rank heard of, with their loads, in the
// order it heard of them.
//
// Without a cap (max_known=0) a membership bitmap over all P ranks makes merging a message cost one
// bit test per entry (the gossip carries lists of up to P entries, P x fanout times a round); the
// bitmaps and lists then cost P^2 bits and up to P^2 entries over all ranks.
//
// With a cap (the max_known key) a rank keeps only the `cap` entries of smallest priority, a hash
// of (salt, rank) with a salt of its own: a bottom-k sample of everything it heard of, uniform,
// different on every rank, and a function of the set heard of alone (merging bottom-k samples is
// commutative), so deterministic mode stays order-independent. The lists are then kept in rank
// order (messages are encoded from them, so they arrive sorted too) and a message is merged in one
// pass over both, reading memory in order: a rank's memory is O(cap), not O(P), and no per-entry
// probe misses the cache, which is what lets 131,072 virtual ranks gossip in lbsim. A
// rank dropped by a compaction is kept out by the cut (its priority is above it), and gossip
// targets avoid the ranks on the lists; a dropped one may be sent to.
//
// An overloaded rank (keep_all) keeps everything it hears even under a cap, and forwards only its
// bottom-cap sample (forwarded()): messages stay O(cap), while the ranks that place objects learn of
// up to fanout x rounds x cap peers. Without that, one hot rank could place its objects on at most
// cap peers per iteration.
class Knowledge {
 public:
  void clear();
  // Clears and gives the memory back (lists and bitmap): for a rank whose knowledge will not be
  // read again this inform stage, so that the peak holds only the lists still to be read. Under a
  // cap the memory is O(cap) and kept for the next stage (clear() only).
  void release();
  // 0: no cap. Set before the first add of an inform stage.
  // keep_all: keep every rank heard of even under a cap (an overloaded rank: see above).
  void limit(std::size_t cap, std::uint64_t salt, bool keep_all = false);
  bool keeps_all() const { return keep_all_; }
  // Reduces the lists to the bottom `cap` (a no-op without a cap or below it). Call before reading
  // ranks(), loads() or headroom() after adds.
  void settle() {
    if (cap_ != 0 && !keep_all_ && ranks_.size() > cap_) compact();
  }
  // What a gossip message carries: the lists, or under keep_all their bottom-cap sample (in rank
  // order, copied into the out-parameters). Call after settle().
  struct Forwarded {
    std::vector<Rank> ranks;
    std::vector<double> loads;
    std::vector<double> headrooms;
    std::vector<PeerBlocks> blocks;
  };
  void sample(Forwarded& out) const;
  // Ranks added to the lists this stage (without a cap: every rank heard of; with one, those that
  // were under the cut when first heard of).
  std::size_t seen() const { return seen_; }
  // On the lists (without a cap: heard of).
  bool contains(Rank r) const {
    if (cap_ != 0) return std::binary_search(ranks_.begin(), ranks_.end(), r);
    const auto i = static_cast<std::size_t>(r);
    return i / 64 < bits_.size() && (bits_[i / 64] >> (i % 64) & 1U) != 0;
  }
  // Adds r unless known. `ranks` is P, the size of the bitmap. Inline: the gossip calls it once
  // per entry of every message, hundreds of millions of times per iteration on 4096 ranks.
  void add(Rank r, double load, Rank ranks, double headroom = HUGE_VAL, const PeerBlocks* blocks = nullptr) {
    if (cap_ != 0) {
      add_in_order(r, load, headroom, blocks);
      return;
    }
    if (bits_.empty()) bits_.assign((static_cast<std::size_t>(ranks) + 63) / 64, 0);
    const auto i = static_cast<std::size_t>(r);
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    if ((bits_[i / 64] & bit) != 0) return;
    bits_[i / 64] |= bit;
    ++seen_;
    ranks_.push_back(r);
    loads_.push_back(load);
    if (track_headroom_) headrooms_.push_back(headroom);
    if (track_blocks_) push_blocks(blocks);
  }
  // add() for every entry of a received message. Without cap and headrooms (the default keys) it
  // runs one loop over the message with the lists grown once, by at most half their size beyond
  // what the message can add, rather than a doubling; under a cap, one ordered merge.
  void merge(const GossipView& message, Rank ranks);
  // Headrooms are kept only under memory limits: without them they would add P^2 doubles over all
  // ranks for nothing. Set before the first add of an inform stage.
  void track_headroom(bool on) { track_headroom_ = on; }
  // The headroom of the i-th known rank, bytes (+inf when not tracked).
  double headroom(std::size_t i) const { return track_headroom_ ? headrooms_[i] : HUGE_VAL; }
  // Blocks are kept only when Shared::blocks says so. Set before the first add.
  void track_blocks(bool on) { track_blocks_ = on; }
  bool tracks_blocks() const { return track_blocks_; }
  // The i-th known rank's blocks (empty when not tracked), a copy: the lists keep the blocks of
  // the few ranks that hold any apart from the rest (see blocks_).
  PeerBlocks blocks(std::size_t i) const;
  // blocks(i) of every entry, in list order.
  std::vector<PeerBlocks> all_blocks() const;
  std::size_t size() const { return ranks_.size(); }
  const std::vector<Rank>& ranks() const { return ranks_; }
  const std::vector<double>& loads() const { return loads_; }
  const std::vector<double>& headrooms() const { return headrooms_; }
  // Indices into ranks() (and loads(), headroom()) in ascending rank order: read off the bitmap's
  // running popcounts instead of sorting, O(size + P / 64); under a cap the lists are in that order.
  // Call after settle().
  std::vector<std::size_t> rank_order() const;
  // Up to `count` distinct ranks of [0, P) that are neither known nor `self`, drawn uniformly.
  std::vector<Rank> sample_unknown(Random& random, Rank ranks, Rank self, std::size_t count) const;

 private:
  std::vector<std::uint64_t> bits_;  // allocated on first add
  std::vector<Rank> ranks_;
  std::vector<double> loads_;
  std::vector<double> headrooms_;  // bytes each may still take, when tracked
  bool track_headroom_ = false;
  // When tracked: each entry's largest working bytes, and 1 + its index in blocks_ when it holds
  // shared blocks (else 0). Most ranks hold none, and a PeerBlocks is 80 bytes before its
  // contents: on every list entry it was most of what a rank kept under memory limits.
  std::vector<double> working_;
  std::vector<std::uint32_t> block_slot_;
  std::vector<PeerBlocks> blocks_;  // grows within an inform stage; what compactions drop stays
  bool track_blocks_ = false;
  std::size_t seen_ = 0;
  std::size_t cap_ = 0;
  bool keep_all_ = false;
  std::uint64_t salt_ = 0;
  std::uint64_t cut_ = ~std::uint64_t{0};  // largest priority kept by the last compaction
  std::vector<std::uint64_t> priorities_;  // of ranks_, when capped
  std::vector<std::uint64_t> scratch_;  // compact()'s selection, kept to save an allocation each time
  std::vector<std::size_t> merged_entries_;  // merge_in_order()'s candidates: entries under the cut
  std::vector<std::uint64_t> merged_priorities_;
  // One finaliser over (salt xor rank): a different bijection of the ranks per salt, and salts are
  // 64 random bits, so samples of different ranks are independent for all practical purposes.
  std::uint64_t priority_of(Rank r) const { return mix64(salt_ ^ static_cast<std::uint64_t>(r)); }
  void add_in_order(Rank r, double load, double headroom, const PeerBlocks* blocks);  // under a cap
  bool merge_in_order(const GossipView& message);  // under a cap; false if the message is not sorted
  void compact();  // keeps the bottom cap_ by priority, in rank order
  void resize_lists(std::size_t size);            // every tracked list to `size` entries
  void move_entry(std::size_t from, std::size_t to);  // entry `from` of every tracked list to `to`
  void push_blocks(const PeerBlocks* blocks);  // appends an entry's working_ and block_slot_
  std::uint32_t keep_blocks(const PeerBlocks& blocks);  // its block_slot_
};

}  // namespace tessera::lb::tempered
