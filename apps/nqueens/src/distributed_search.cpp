#include "tessera/nqueens/distributed_search.hpp"

#include <tessera/collections/steal/task_collection.hpp>

#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens {

using collections::steal::Spawner;
using collections::steal::TaskCollection;

DistributedSearchResult search_distributed(Runtime& rt, Termination& term, std::int32_t n, std::int32_t cutoff,
                                           const collections::steal::StealOptions& options) {
  const Board board(n);
  check_cutoff(n, cutoff);
  std::uint64_t solutions = 0;
  TaskCollection<Placement> search(rt, term, options, [&](const Placement& task, Spawner<Placement>& spawner) {
    if (task.row < cutoff) {
      for (const Placement& child : board.extend(task)) spawner.spawn(child);
      return;
    }
    solutions += board.count_below(task);
  });
  if (rt.rank() == 0) search.seed(board.empty());
  rt.collectives().barrier();  // time the search alone, from a common start
  DistributedSearchResult result;
  result.stats = search.process();
  result.solutions = rt.collectives().allreduce(solutions, op::sum{});
  result.tasks = result.stats.total().tasks_executed;
  return result;
}

}  // namespace tessera::nqueens
