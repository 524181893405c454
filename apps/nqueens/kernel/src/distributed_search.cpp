#include "tessera/nqueens/distributed_search.hpp"

#include <tessera/collections/steal/task_collection.hpp>

#include <vector>

#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens {

using collections::steal::CacheAligned;
using collections::steal::Spawner;
using collections::steal::TaskCollection;

DistributedSearchResult search_distributed(Runtime& rt, std::int32_t n, std::int32_t cutoff,
                                           const collections::steal::StealOptions& options) {
  const Board board(n);
  check_cutoff(n, cutoff);
  // One count per worker thread: the task function runs on all of them at once.
  std::vector<CacheAligned<std::uint64_t>> solutions(static_cast<std::size_t>(options.workers));
  TaskCollection<Placement> search(rt, options, [&](const Placement& task, Spawner<Placement>& spawner) {
    if (task.row < cutoff) {
      for (const Placement& child : board.extend(task)) spawner.spawn(child);
      return;
    }
    solutions[spawner.worker()].value += board.count_below(task);
  });
  if (rt.rank() == 0) search.seed(board.empty());
  rt.collectives().barrier();  // time the search alone, from a common start
  DistributedSearchResult result;
  result.stats = search.process();
  std::uint64_t mine = 0;
  for (const auto& count : solutions) mine += count.value;
  result.solutions = rt.collectives().allreduce(mine, op::sum{});
  result.tasks = result.stats.total().tasks_executed;
  return result;
}

}  // namespace tessera::nqueens
