#pragma once
// One function per way of running the search, each in its own file; main() picks one.
// The distributed driver (a task collection seeded with Board::tasks(cutoff)) will be the
// next one, with the same signature.

#include <cstdint>
#include <string>

#include "options.hpp"

namespace tessera::nqueens::app {

struct SearchReport {
  std::uint64_t solutions = 0;
  std::uint64_t tasks = 0;
  double seconds = 0;  // wall-clock time of the search alone
  std::string policy;  // "sequential" or "workers"
  std::size_t workers = 1;
  std::uint64_t steals_attempted = 0;
  std::uint64_t steals_successful = 0;
};

SearchReport run_sequential(const Options& options);
SearchReport run_workers(const Options& options);

}  // namespace tessera::nqueens::app
