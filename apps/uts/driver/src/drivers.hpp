#pragma once
// One function per way of searching the tree, each in its own file; the shared search-app main
// (tessera/apps/search_main.hpp) picks one. The distributed driver runs the search as a task
// collection over the Tessera runtime, one task per node, with victim policy "random",
// "lifeline" or "success_only".

#include <tessera/apps/search_run.hpp>

#include "options.hpp"
#include "tessera/uts/search.hpp"

namespace tessera {
class Runtime;
class Context;
}  // namespace tessera

namespace tessera::uts::app {

// The tree's counts, beside how the search ran.
using SearchReport = apps::SearchReport<TreeCounts>;

SearchReport run_sequential(const Options& options);
SearchReport run_workers(const Options& options);
// Collective: every rank calls it; every rank gets the whole tree's counts.
SearchReport run_distributed(const Options& options, Context& ctx);

}  // namespace tessera::uts::app
