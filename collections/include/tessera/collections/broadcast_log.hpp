#pragma once
/// Exactly-once broadcasts to elements that migrate while the broadcast is in flight.
///
/// A collection broadcast travels down the runtime's spanning tree and runs on the elements each
/// rank holds when it gets there. An element that moves meanwhile could see it twice (it ran on
/// the rank it left, and the rank it reaches gets the broadcast later) or never (it left before
/// the broadcast reached its old rank and arrived after it passed its new one). The fix follows
/// vt's collection broadcasts: number them, remember per element what it ran, and replay what it
/// missed when it arrives.
/// - Each rank numbers the broadcasts it roots per collection: 1, 2, ... Every rank receives the
///   broadcasts of one root in that order (they follow the same tree paths, and the runtime keeps
///   per-pair order), so "the last sequence seen from root r" says exactly which ones arrived.
/// - Every element carries a mark per root: the sequence of the last broadcast it ran. A rank
///   runs broadcast s on a local element only when the element's mark is below s, then raises it.
/// - Every rank keeps the arguments of the broadcasts it received during the phase. An element
///   arriving with a mark below the rank's own runs the missing ones from there, in order; one
///   whose mark is ahead skips them when they come.
/// Memory: the arguments of every broadcast a rank receives are kept until the next end of phase
/// (a point of global quiescence, when every element has seen every broadcast), where clear()
/// drops them.
#include <tessera/runtime/buffer.hpp>
#include <tessera/runtime/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <span>
#include <type_traits>
#include <vector>

namespace tessera::collections {

/// "The last broadcast rooted at `root` that this element ran was number `sequence`." (16 bytes,
/// travels with a migrating element as raw bytes.)
struct BroadcastMark {
  std::int32_t root = 0;
  std::uint32_t reserved = 0;
  std::uint64_t sequence = 0;
};
static_assert(sizeof(BroadcastMark) == 16 && std::is_trivially_copyable_v<BroadcastMark>);

/// One element's marks, one per root it has seen a broadcast from (a few, usually one).
class BroadcastMarks {
 public:
  std::uint64_t of(int root) const {
    auto it = find(root);
    return it == marks_.end() ? 0 : it->sequence;
  }
  void set(int root, std::uint64_t sequence) {
    auto it = find(root);
    if (it == marks_.end()) marks_.push_back(BroadcastMark{root, 0, sequence});
    else it->sequence = sequence;
  }
  /// The marks as bytes, to send with a migrating element.
  std::span<const std::byte> bytes() const { return std::as_bytes(std::span(marks_)); }
  /// Marks received as bytes(); a length that is not whole marks is a malformed migration.
  static BroadcastMarks from_bytes(std::span<const std::byte> bytes) {
    if (bytes.size() % sizeof(BroadcastMark) != 0)
      fatal("malformed migration: {} bytes of broadcast marks, not a multiple of {}", bytes.size(),
            sizeof(BroadcastMark));
    BroadcastMarks marks;
    marks.marks_.resize(bytes.size() / sizeof(BroadcastMark));
    if (!bytes.empty()) std::memcpy(marks.marks_.data(), bytes.data(), bytes.size());
    return marks;
  }

 private:
  std::vector<BroadcastMark>::iterator find(int root) {
    return std::find_if(marks_.begin(), marks_.end(), [root](const BroadcastMark& m) { return m.root == root; });
  }
  std::vector<BroadcastMark>::const_iterator find(int root) const {
    return std::find_if(marks_.begin(), marks_.end(), [root](const BroadcastMark& m) { return m.root == root; });
  }
  std::vector<BroadcastMark> marks_;
};

/// One rank's record of one collection's broadcasts. `Replay` is how a kept broadcast is run
/// again on one late element (the collection's typed function pointer).
template <class Replay>
class BroadcastLog {
 public:
  /// The sequence number of the next broadcast this rank roots.
  std::uint64_t next_sequence() { return ++rooted_; }

  /// Records that broadcast `sequence` from `root` reached this rank, keeping `arguments` (the
  /// encoded handler arguments) to replay it. Sequences from one root must come in order.
  void record(int root, std::uint64_t sequence, Replay replay, std::span<const std::byte> arguments) {
    Root& log = roots_[root];
    if (sequence != log.latest + 1)
      fatal("collection broadcast {} from rank {} arrived after {}: broadcasts from one rank must "
            "arrive in order",
            sequence, root, log.latest);
    log.latest = sequence;
    Buffer copy(arguments.size());
    copy.append(arguments.data(), arguments.size());
    log.kept.push_back(Kept{replay, std::move(copy)});
  }

  /// Brings an arriving element's marks up to this rank's: calls run(replay, arguments) for each
  /// broadcast it missed, by root, in sequence order.
  template <class Run>
  void catch_up(BroadcastMarks& marks, Run&& run) const {
    for (const auto& [root, log] : roots_) {
      const std::uint64_t seen = marks.of(root);
      if (seen >= log.latest) continue;
      const std::uint64_t first_kept = log.latest - log.kept.size() + 1;
      if (seen + 1 < first_kept)
        fatal("an element arrived having missed collection broadcast {} from rank {}, which is no "
              "longer kept: migrations must not cross an end of phase",
              seen + 1, root);
      for (std::uint64_t s = seen + 1; s <= log.latest; ++s) {
        const Kept& kept = log.kept[s - first_kept];
        run(kept.replay, kept.arguments.view());
      }
      marks.set(root, log.latest);
    }
  }

  /// Marks that say "ran everything this rank has received": what an element constructed here
  /// now starts with, so it runs the broadcasts that reach the rank after it, not those before.
  BroadcastMarks marks_now() const {
    BroadcastMarks marks;
    for (const auto& [root, log] : roots_) marks.set(root, log.latest);
    return marks;
  }

  /// Drops the kept arguments. Call only at global quiescence, when every element has run every
  /// broadcast sent so far.
  void clear() {
    for (auto& [root, log] : roots_) log.kept.clear();
  }

 private:
  struct Kept {
    Replay replay;
    Buffer arguments;
  };
  struct Root {
    std::uint64_t latest = 0;  // last sequence received from this root
    std::deque<Kept> kept;     // the last kept.size() of them, in order
  };
  std::uint64_t rooted_ = 0;
  std::map<int, Root> roots_;
};

}  // namespace tessera::collections
