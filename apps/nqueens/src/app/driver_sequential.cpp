#include <chrono>

#include "drivers.hpp"
#include "tessera/nqueens/board.hpp"

namespace tessera::nqueens::app {

// The tasks a distributed run would seed, run one after the other.
SearchReport run_sequential(const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  const Board board(options.n);
  SearchReport report;
  for (const Placement& task : board.tasks(options.cutoff)) {
    report.solutions += board.count_below(task);
    ++report.tasks;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.policy = "sequential";
  return report;
}

}  // namespace tessera::nqueens::app
