#pragma once
// A node of the minimax tree that has children, while they are being searched (seed 002,
// section 35.4.1.1: "a counter at each node that keeps track of the number of child nodes it
// has received a value from"), and the per-worker free lists the records come from.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "tessera/connect4/board.hpp"

namespace tessera::connect4::detail {

struct NodeRecord {
  NodeRecord* parent = nullptr;  // nullptr at the root; the free list's link while free
  // Children yet to report. Each child writes its slot of `values`, then decrements with
  // acq_rel: the decrements form one release sequence, so the child that reaches zero reads
  // every slot written before it.
  std::atomic<int> pending{0};
  std::array<std::int16_t, kColumns> values{};
  std::uint8_t playable = 0;  // bit c: column c has a child
  std::uint8_t column = 0;    // this node's move in its parent
  std::uint8_t depth = 0;
  std::uint64_t occupied = 0;  // the node's Board::occupied(): a child finds its move from it
};

// Records handed out and taken back by one worker. A record allocated by one worker may be
// released by another (the one whose child finished last); it then joins that worker's list.
// No list is touched by two threads, so none needs synchronization.
class NodeArena {
 public:
  NodeRecord* allocate() {
    if (free_ != nullptr) {
      NodeRecord* record = free_;
      free_ = record->parent;
      return record;
    }
    if (used_ == kChunk) {
      chunks_.push_back(std::make_unique<NodeRecord[]>(kChunk));
      used_ = 0;
    }
    return &chunks_.back()[used_++];
  }

  void release(NodeRecord* record) noexcept {
    record->parent = free_;
    free_ = record;
  }

 private:
  static constexpr std::size_t kChunk = 1024;
  std::vector<std::unique_ptr<NodeRecord[]>> chunks_;
  std::size_t used_ = kChunk;
  NodeRecord* free_ = nullptr;
};

}  // namespace tessera::connect4::detail
