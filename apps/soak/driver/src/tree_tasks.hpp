#pragma once
// The soak's task collection with stealing: per phase, a binary tree of tasks seeded on one rank
// that thieves spread over the others. Every task adds a hash of its node to its rank's sums, so
// a reduction can tell a task lost or run twice from the exact tree.
#include <tessera/tessera.hpp>

#include <atomic>
#include <cstdint>

namespace tessera::soak {

struct TreeNode {
  std::uint64_t id = 1;  // heap numbering: children 2i and 2i+1
  std::uint32_t depth = 0;
};

/// The tasks of one phase's tree, checked.
struct TreeOutcome {
  std::uint64_t tasks = 0;       ///< tasks run, all ranks
  std::uint64_t lost = 0;        ///< tasks of the tree not run
  std::uint64_t duplicated = 0;  ///< tasks run more than once (or not of the tree)
  std::uint64_t steals = 0;      ///< successful steals between ranks
};

class TreeTasks {
 public:
  /// Collective. `depth` levels below the root (0 disables: run() does nothing).
  TreeTasks(Context& ctx, int depth);
  /// Collective: the tree rooted on rank (phase % P), every task run, the outcome checked.
  TreeOutcome run(std::uint64_t phase);

 private:
  Context& ctx_;
  int depth_;
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> hashes_{0};
  collections::steal::TaskCollection<TreeNode> tasks_;
};

}  // namespace tessera::soak
