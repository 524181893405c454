#pragma once
// Which epochs have ended on this rank, without a heap allocation per epoch.
//
// The epochs of one origin (the collective sequence, or one root's rooted sequence) end here
// mostly in the order they were opened, so each origin keeps a watermark below which all of its
// epochs have ended, plus the few that ended ahead of it (an inner epoch ends before its outer
// one; a rank that never took part in a rooted epoch never sees it end). Membership is exact.
#include <tessera/termination/epoch.hpp>

#include <cstdint>
#include <set>
#include <unordered_map>

namespace tessera::detail {

class EndedEpochs {
 public:
  void insert(EpochId epoch) {
    Origin& origin = origin_of(epoch);
    const std::uint64_t sequence = sequence_of(epoch);
    if (sequence < origin.below) return;
    if (sequence != origin.below) {
      origin.ahead.insert(sequence);
      return;
    }
    ++origin.below;
    for (auto it = origin.ahead.begin(); it != origin.ahead.end() && *it == origin.below;
         it = origin.ahead.erase(it))
      ++origin.below;
  }

  bool contains(EpochId epoch) const {
    const Origin* origin = find_origin(epoch);
    if (origin == nullptr) return false;
    const std::uint64_t sequence = sequence_of(epoch);
    return sequence < origin->below || origin->ahead.count(sequence) != 0;
  }

 private:
  struct Origin {
    std::uint64_t below = 1;  // sequences start at 1
    std::set<std::uint64_t> ahead;
  };

  static constexpr std::uint64_t kSequenceMask = (std::uint64_t{1} << 40) - 1;
  static std::uint64_t sequence_of(EpochId epoch) { return is_rooted_epoch(epoch) ? epoch & kSequenceMask : epoch; }

  Origin& origin_of(EpochId epoch) {
    return is_rooted_epoch(epoch) ? rooted_[epoch & ~kSequenceMask] : collective_;
  }
  const Origin* find_origin(EpochId epoch) const {
    if (!is_rooted_epoch(epoch)) return &collective_;
    auto it = rooted_.find(epoch & ~kSequenceMask);
    return it == rooted_.end() ? nullptr : &it->second;
  }

  Origin collective_;
  std::unordered_map<std::uint64_t, Origin> rooted_;  // by the epoch id with its sequence cleared
};

}  // namespace tessera::detail
