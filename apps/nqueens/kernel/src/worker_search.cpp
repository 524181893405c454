#include "tessera/nqueens/worker_search.hpp"

#include <vector>

#include <tessera/runtime/error.hpp>

#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens {

using collections::steal::CacheAligned;
using collections::steal::WorkerContext;
using collections::steal::WorkerPool;

WorkerSearchResult search_workers(std::int32_t n, std::int32_t cutoff, std::size_t workers) {
  const Board board(n);
  check_cutoff(n, cutoff);
  // Checked here, not left to WorkerPool, so bad input is a tessera::Error like the others.
  if (workers == 0) throw Error("the number of workers is 0: expected at least 1");
  WorkerPool<Placement> pool(workers);
  std::vector<CacheAligned<std::uint64_t>> solutions(workers);
  const Placement root = board.empty();
  WorkerSearchResult result;
  result.stats = pool.run(std::span(&root, 1), [&](const Placement& task, WorkerContext<Placement>& context) {
    if (task.row < cutoff) {
      for (const Placement& child : board.extend(task)) {
        context.spawn(child);
      }
      return;
    }
    solutions[context.worker()].value += board.count_below(task);
  });
  for (const auto& count : solutions) {
    result.solutions += count.value;
  }
  result.tasks = result.stats.total().tasks_executed;
  return result;
}

}  // namespace tessera::nqueens
