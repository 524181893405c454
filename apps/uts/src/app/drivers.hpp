#pragma once
// One function per way of searching the tree, each in its own file; main() picks one.
// The distributed driver runs the search as a task collection over the Tessera runtime, one
// task per node, with victim policy "random", "lifeline" or "success_only".

#include <cstdint>
#include <optional>
#include <string>

#include <tessera/collections/steal/search_mode.hpp>

#include "options.hpp"
#include "tessera/uts/search.hpp"

namespace tessera {
class Runtime;
class Termination;
}  // namespace tessera

namespace tessera::uts::app {

// The answer, beside how the search ran (SearchRun).
struct SearchReport : collections::steal::SearchRun {
  TreeCounts counts;
};

SearchReport run_sequential(const Options& options);
SearchReport run_workers(const Options& options);
// Collective: every rank calls it; every rank gets the whole tree's counts.
SearchReport run_distributed(const Options& options, Runtime& rt, Termination& term);

}  // namespace tessera::uts::app
