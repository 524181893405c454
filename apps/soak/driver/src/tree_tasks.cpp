#include "tree_tasks.hpp"

#include "tessera/soak/message.hpp"

namespace tessera::soak {

TreeTasks::TreeTasks(Context& ctx, int depth)
    : ctx_(ctx), depth_(depth), tasks_(ctx.task_collection<TreeNode>([this](const TreeNode& n, auto& spawner) {
        // Atomics: with --tessera_workers > 1 several threads run tasks at once.
        count_.fetch_add(1, std::memory_order_relaxed);
        hashes_.fetch_add(mix(n.id), std::memory_order_relaxed);
        if (static_cast<int>(n.depth) < depth_) {
          spawner.spawn(TreeNode{2 * n.id, n.depth + 1});
          spawner.spawn(TreeNode{2 * n.id + 1, n.depth + 1});
        }
      })) {}

TreeOutcome TreeTasks::run(std::uint64_t phase) {
  TreeOutcome out;
  if (depth_ <= 0) return out;
  Runtime& rt = ctx_.runtime();
  count_ = 0;
  hashes_ = 0;
  if (static_cast<std::uint64_t>(rt.rank()) == phase % static_cast<std::uint64_t>(rt.size())) tasks_.seed(TreeNode{});
  const auto stats = tasks_.process();
  struct Sums {
    std::uint64_t count, hashes;
  };
  const Sums all = rt.collectives().allreduce(Sums{count_.load(), hashes_.load()}, [](Sums x, const Sums& y) {
    return Sums{x.count + y.count, x.hashes + y.hashes};
  });
  const std::uint64_t nodes = (std::uint64_t{1} << (depth_ + 1)) - 1;
  std::uint64_t want = 0;
  for (std::uint64_t id = 1; id <= nodes; ++id) want += mix(id);
  out.tasks = all.count;
  out.lost = all.count < nodes ? nodes - all.count : 0;
  out.duplicated = all.count > nodes ? all.count - nodes : 0;
  if (all.count == nodes && all.hashes != want) out.lost = out.duplicated = 1;  // other tasks than the tree's
  out.steals = stats.total().steals_successful;
  return out;
}

}  // namespace tessera::soak
