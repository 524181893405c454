#pragma once
// One function per way of running the search, each in its own file; the shared search-app main
// (tessera/apps/search_main.hpp) picks one. The distributed driver runs the search as a task
// collection over the Tessera runtime.

#include <cstdint>

#include <tessera/apps/search_run.hpp>

#include "options.hpp"

namespace tessera {
class Runtime;
class Context;
}  // namespace tessera

namespace tessera::nqueens::app {

struct Count {
  std::uint64_t solutions = 0;
  std::uint64_t tasks = 0;  // tasks run, the spawning ones above the cutoff included
};

// The count, beside how the search ran.
using SearchReport = apps::SearchReport<Count>;

SearchReport run_sequential(const Options& options);
SearchReport run_workers(const Options& options);
// Collective: every rank calls it; every rank gets the total count.
SearchReport run_distributed(const Options& options, Context& ctx);

}  // namespace tessera::nqueens::app
