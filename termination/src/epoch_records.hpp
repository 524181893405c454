#pragma once
// The records of the epochs open on this rank. Few are open at once (the nesting depth plus the
// rooted epochs in flight), so they live in a short list searched from the newest, and the
// records of ended epochs are kept for reuse: once warm, opening and ending an epoch allocates
// nothing. Records never move while open, so a reference to one stays valid until it is erased.
#include <tessera/termination/epoch.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace tessera::detail {

struct EpochRecord {
  EpochId id = kGlobalEpoch;
  bool opened = false;      // this rank opened it (collective) or is its root (rooted)
  bool finished = false;    // finish() was called here
  bool terminated = false;
  std::uint64_t sent = 0;   // counted messages of the epoch sent here, plus inner epochs opened
  std::uint64_t handled = 0;  // ... handled here, plus inner epochs ended
  EpochId parent = kGlobalEpoch;  // the epoch that was current when this one opened here
  std::vector<std::function<void()>> callbacks;

  // Waves, on every rank: the wave being answered and the sums of the children's answers.
  std::uint64_t wave = 0;
  bool wave_open = false;
  std::size_t wave_children_left = 0;
  std::uint64_t wave_sent = 0;
  std::uint64_t wave_handled = 0;
  // Waves, on the wave root only.
  bool wave_running = false;
  double next_wave_at = 0;
  double backoff_us = 0;
  std::uint64_t last_sent = ~0ull;
  std::uint64_t last_handled = ~0ull;
  std::uint64_t waves_run = 0;

  // Butterfly waves (collective epochs): the round this rank waits for, and the parts that have
  // arrived and not been used yet (at most a few: one per round of this wave and the next).
  struct ButterflyPart {
    std::uint64_t wave;
    int round;
    std::uint64_t sent;
    std::uint64_t handled;
  };
  int butterfly_round = 0;
  std::vector<ButterflyPart> butterfly_parts;

  // Dijkstra-Scholten: messages (and inner epochs) not yet acknowledged, and the parent edge.
  std::int64_t deficit = 0;
  bool engaged = false;
  int ds_parent = -1;

  /// Back to a fresh record, keeping the vectors' capacity for the next epoch.
  void reset() {
    std::vector<std::function<void()>> kept_callbacks = std::move(callbacks);
    std::vector<ButterflyPart> kept_parts = std::move(butterfly_parts);
    *this = EpochRecord{};
    kept_callbacks.clear();
    kept_parts.clear();
    callbacks = std::move(kept_callbacks);
    butterfly_parts = std::move(kept_parts);
  }
};


class EpochRecords {
 public:
  EpochRecord* find(EpochId id) {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it)
      if ((*it)->id == id) return it->get();
    return nullptr;
  }
  const EpochRecord* find(EpochId id) const { return const_cast<EpochRecords*>(this)->find(id); }

  /// The record of `id` and true if it was added now (a fresh record with its id set).
  std::pair<EpochRecord*, bool> find_or_add(EpochId id) {
    if (EpochRecord* found = find(id)) return {found, false};
    std::unique_ptr<EpochRecord> added;
    if (free_.empty()) {
      added = std::make_unique<EpochRecord>();
    } else {
      added = std::move(free_.back());
      free_.pop_back();
      added->reset();
    }
    added->id = id;
    open_.push_back(std::move(added));
    return {open_.back().get(), true};
  }

  /// Forgets `id` (no-op if absent); its record is kept for reuse.
  void erase(EpochId id) {
    for (std::size_t i = 0; i < open_.size(); ++i) {
      if (open_[i]->id != id) continue;
      std::unique_ptr<EpochRecord> done = std::move(open_[i]);
      open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(i));
      if (free_.size() < kKeep) free_.push_back(std::move(done));
      return;
    }
  }

  /// Calls `visit(record)` for every open epoch, oldest first.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const auto& record : open_) visit(*record);
  }

 private:
  static constexpr std::size_t kKeep = 16;
  std::vector<std::unique_ptr<EpochRecord>> open_;
  std::vector<std::unique_ptr<EpochRecord>> free_;
};

}  // namespace tessera::detail
