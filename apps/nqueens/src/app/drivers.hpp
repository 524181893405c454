#pragma once
// One function per way of running the search, each in its own file; main() picks one.
// The distributed driver runs the search as a task collection over the Tessera runtime.

#include <cstdint>
#include <optional>
#include <string>

#include <tessera/collections/steal/search_mode.hpp>

#include "options.hpp"

namespace tessera {
class Runtime;
class Termination;
}  // namespace tessera

namespace tessera::nqueens::app {

// The answer, beside how the search ran (SearchRun).
struct SearchReport : collections::steal::SearchRun {
  std::uint64_t solutions = 0;
  std::uint64_t tasks = 0;
};

SearchReport run_sequential(const Options& options);
SearchReport run_workers(const Options& options);
// Collective: every rank calls it; every rank gets the total count.
SearchReport run_distributed(const Options& options, Runtime& rt, Termination& term);

}  // namespace tessera::nqueens::app
