#pragma once
// One function per way of running the search, each in its own file; main() picks one.
// The distributed driver runs the search as a task collection over the Tessera runtime.

#include <cstdint>
#include <optional>
#include <string>

#include <tessera/collections/steal/steal_stats.hpp>

#include "options.hpp"

namespace tessera {
class Runtime;
class Termination;
}  // namespace tessera

namespace tessera::nqueens::app {

struct SearchReport {
  std::uint64_t solutions = 0;
  std::uint64_t tasks = 0;
  double seconds = 0;  // wall-clock time of the search alone
  std::string policy;  // "sequential" or "workers"
  std::size_t workers = 1;
  std::uint64_t steals_attempted = 0;
  std::uint64_t steals_successful = 0;
  int ranks = 1;
  std::optional<collections::steal::IterationStats> steal_stats;  // distributed searches only
};

SearchReport run_sequential(const Options& options);
SearchReport run_workers(const Options& options);
// Collective: every rank calls it; every rank gets the total count.
SearchReport run_distributed(const Options& options, Runtime& rt, Termination& term);

}  // namespace tessera::nqueens::app
