#include "drivers.hpp"
#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens::app {

// The tasks a distributed run would seed, run one after the other.
SearchReport run_sequential(const Options& options) {
  const apps::Stopwatch clock;
  const Board board(options.n);
  Count count;
  for (const Placement& task : board.tasks(options.cutoff)) {
    count.solutions += board.count_below(task);
    ++count.tasks;
  }
  return {count, apps::sequential_run(clock.seconds())};
}

}  // namespace tessera::nqueens::app
