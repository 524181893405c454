// What a rank knows of the underloaded ranks during an inform stage (knowledge.hpp).

#include "knowledge.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace tessera::lb::tempered {

void Knowledge::limit(std::size_t cap, std::uint64_t salt, bool keep_all) {
  if (cap != cap_) clear();
  cap_ = cap;
  salt_ = salt;
  keep_all_ = cap != 0 && keep_all;
}

void Knowledge::sample(Forwarded& out) const {
  std::vector<std::uint64_t> order(priorities_);
  std::uint64_t cut = ~std::uint64_t{0};
  if (order.size() > cap_) {
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(cap_ - 1), order.end());
    cut = order[cap_ - 1];
  }
  out = Forwarded{};
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    if (priorities_[i] > cut) continue;
    out.ranks.push_back(ranks_[i]);
    out.loads.push_back(loads_[i]);
    if (track_headroom_) out.headrooms.push_back(headrooms_[i]);
    if (track_blocks_) out.blocks.push_back(blocks(i));
  }
}

void Knowledge::clear() {
  std::fill(bits_.begin(), bits_.end(), 0);
  ranks_.clear();
  loads_.clear();
  headrooms_.clear();
  working_.clear();
  block_slot_.clear();
  blocks_.clear();
  priorities_.clear();
  cut_ = ~std::uint64_t{0};
  seen_ = 0;
}

void Knowledge::merge(const GossipView& message, Rank ranks) {
  const std::size_t n = message.size();
  if (cap_ != 0 && merge_in_order(message)) return;
  if (cap_ != 0 || track_headroom_ || track_blocks_) {
    const bool headrooms = message.has_headrooms();
    const bool blocks = track_blocks_ && message.has_blocks();
    for (std::size_t i = 0; i < n; ++i) {
      const Rank r = message.rank(i);
      // Under a cap the cut turns most entries away before any memory is touched.
      if (cap_ != 0 ? priority_of(r) > cut_ : contains(r)) continue;
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
  if (cap_ != 0) return;
  std::vector<std::uint64_t>().swap(bits_);
  std::vector<Rank>().swap(ranks_);
  std::vector<double>().swap(loads_);
  std::vector<double>().swap(headrooms_);
  std::vector<double>().swap(working_);
  std::vector<std::uint32_t>().swap(block_slot_);
  std::vector<PeerBlocks>().swap(blocks_);
  std::vector<std::uint64_t>().swap(priorities_);
}

void Knowledge::compact() {
  // Keeps the lists' (rank) order. Priorities are distinct with overwhelming probability (64-bit hashes of distinct ranks); a tie
  // at the cut would keep both, which is still a function of the set heard of.
  std::vector<std::uint64_t>& order = scratch_;
  order.assign(priorities_.begin(), priorities_.end());
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(cap_ - 1), order.end());
  cut_ = order[cap_ - 1];
  std::size_t kept = 0;
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    if (priorities_[i] > cut_) continue;
    move_entry(i, kept++);
  }
  resize_lists(kept);
}

void Knowledge::resize_lists(std::size_t size) {
  ranks_.resize(size);
  loads_.resize(size);
  priorities_.resize(size);
  if (track_headroom_) headrooms_.resize(size);
  if (track_blocks_) {
    working_.resize(size);
    block_slot_.resize(size);
  }
}

void Knowledge::move_entry(std::size_t from, std::size_t to) {
  ranks_[to] = ranks_[from];
  loads_[to] = loads_[from];
  priorities_[to] = priorities_[from];
  if (track_headroom_) headrooms_[to] = headrooms_[from];
  if (track_blocks_) {
    working_[to] = working_[from];
    block_slot_[to] = block_slot_[from];
  }
}

void Knowledge::add_in_order(Rank r, double load, double headroom, const PeerBlocks* blocks) {
  // Above the cut of an earlier compaction: it can never be in the bottom cap again.
  const std::uint64_t priority = priority_of(r);
  if (priority > cut_) return;
  const auto at = std::lower_bound(ranks_.begin(), ranks_.end(), r);
  if (at != ranks_.end() && *at == r) return;
  const auto i = at - ranks_.begin();
  ++seen_;
  ranks_.insert(at, r);
  loads_.insert(loads_.begin() + i, load);
  priorities_.insert(priorities_.begin() + i, priority);
  if (track_headroom_) headrooms_.insert(headrooms_.begin() + i, headroom);
  if (track_blocks_) {
    working_.insert(working_.begin() + i, blocks != nullptr ? blocks->working : 0.0);
    block_slot_.insert(block_slot_.begin() + i, blocks != nullptr ? keep_blocks(*blocks) : 0);
  }
  if (!keep_all_ && ranks_.size() >= 2 * cap_) compact();
}

bool Knowledge::merge_in_order(const GossipView& message) {
  // Once the lists are full most entries are above the cut: they are turned away on the message
  // alone, and the lists are read and rewritten only when something passes. One ordered merge per
  // message, not an insertion per entry: a rank that keeps all it hears (keep_all) holds long lists,
  // and inserting into them entry by entry cost O(list) per entry.
  const std::size_t n = message.size();
  const bool headrooms = track_headroom_ && message.has_headrooms();
  const bool blocks = track_blocks_ && message.has_blocks();
  merged_entries_.clear();
  merged_priorities_.clear();
  Rank last = -1;
  for (std::size_t j = 0; j < n; ++j) {
    const Rank r = message.rank(j);
    if (r <= last) return false;  // not a capped sender's list: the caller adds entry by entry
    last = r;
    const std::uint64_t priority = priority_of(r);
    if (priority > cut_) continue;
    merged_entries_.push_back(j);
    merged_priorities_.push_back(priority);
  }
  const std::size_t fresh = merged_entries_.size();
  if (fresh == 0) return true;
  const std::size_t before = ranks_.size();
  resize_lists(before + fresh);
  // Merged from the back, in place: the lists' tail and the candidates, both in rank order.
  std::size_t i = before, j = fresh, out = before + fresh;
  std::size_t duplicates = 0;
  while (j > 0) {
    const Rank candidate = message.rank(merged_entries_[j - 1]);
    if (i > 0 && ranks_[i - 1] >= candidate) {
      if (ranks_[i - 1] == candidate) {
        --j;  // known: the entry already on the lists stays, and its slot is closed below
        ++duplicates;
      }
      --i, --out;
      move_entry(i, out);
    } else {
      --j, --out;
      const std::size_t e = merged_entries_[j];
      ranks_[out] = candidate;
      loads_[out] = message.load(e);
      priorities_[out] = merged_priorities_[j];
      if (track_headroom_) headrooms_[out] = headrooms ? message.headroom(e) : HUGE_VAL;
      if (track_blocks_) {
        const PeerBlocks peer = blocks ? message.blocks(e) : PeerBlocks{};
        working_[out] = peer.working;
        block_slot_[out] = keep_blocks(peer);
      }
    }
  }
  if (duplicates != 0) {
    // out - i empty slots are left between the untouched head [0, i) and the merged part.
    const std::size_t gap = out - i;
    for (std::size_t from = out, to = i; from < before + fresh; ++from, ++to) move_entry(from, to);
    resize_lists(before + fresh - gap);
  }
  seen_ += fresh - duplicates;
  if (!keep_all_ && ranks_.size() >= 2 * cap_) compact();
  return true;
}

void Knowledge::push_blocks(const PeerBlocks* blocks) {
  working_.push_back(blocks != nullptr ? blocks->working : 0.0);
  block_slot_.push_back(blocks != nullptr ? keep_blocks(*blocks) : 0);
}

std::uint32_t Knowledge::keep_blocks(const PeerBlocks& blocks) {
  if (blocks.size() == 0) return 0;
  blocks_.push_back(blocks);
  return static_cast<std::uint32_t>(blocks_.size());
}

PeerBlocks Knowledge::blocks(std::size_t i) const {
  if (!track_blocks_) return {};
  PeerBlocks out = block_slot_[i] != 0 ? blocks_[block_slot_[i] - 1] : PeerBlocks{};
  out.working = working_[i];
  return out;
}

std::vector<PeerBlocks> Knowledge::all_blocks() const {
  std::vector<PeerBlocks> out;
  out.reserve(ranks_.size());
  for (std::size_t i = 0; i < ranks_.size(); ++i) out.push_back(blocks(i));
  return out;
}

std::vector<std::size_t> Knowledge::rank_order() const {
  if (cap_ != 0) {
    std::vector<std::size_t> order(ranks_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    return order;
  }
  std::vector<std::size_t> before(bits_.size());  // ranks heard of in earlier words
  std::size_t heard = 0;
  for (std::size_t w = 0; w < bits_.size(); ++w) {
    before[w] = heard;
    heard += static_cast<std::size_t>(std::popcount(bits_[w]));
  }
  std::vector<std::size_t> slot(heard);
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    const auto r = static_cast<std::size_t>(ranks_[i]);
    const std::uint64_t below = (std::uint64_t{1} << (r % 64)) - 1;
    slot[before[r / 64] + static_cast<std::size_t>(std::popcount(bits_[r / 64] & below))] = i;
  }
  return slot;
}

std::vector<Rank> Knowledge::sample_unknown(Random& random, Rank ranks, Rank self, std::size_t count) const {
  // LBAF's random.sample over P minus the known underloaded ranks (Algorithm 1, lines 15, 25-26).
  // Draws depend on the set only, never on the order it was learnt in.
  const std::size_t excluded = ranks_.size() + (contains(self) ? 0 : 1);
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

}  // namespace tessera::lb::tempered
