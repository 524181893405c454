#pragma once
// One function per way of searching the tree, each in its own file; main() picks one.
// The distributed driver (task collections over MPI, policy "random", "lifeline" or
// "success_only") will be the next one, with the same signature.

#include <cstdint>
#include <string>

#include "options.hpp"
#include "tessera/uts/search.hpp"

namespace tessera::uts::app {

struct SearchReport {
  TreeCounts counts;
  double seconds = 0;  // wall-clock time of the search alone
  std::string policy;  // "sequential" or "workers"
  std::size_t workers = 1;
  std::uint64_t steals_attempted = 0;
  std::uint64_t steals_successful = 0;
};

SearchReport run_sequential(const Options& options);
SearchReport run_workers(const Options& options);

}  // namespace tessera::uts::app
