#include "drivers.hpp"

namespace tessera::uts::app {

SearchReport run_sequential(const Options& options) {
  const apps::Stopwatch clock;
  const TreeCounts counts = search_sequential(options.params, options.sha1);
  return {counts, apps::sequential_run(clock.seconds())};
}

}  // namespace tessera::uts::app
