#include <chrono>

#include "drivers.hpp"

namespace tessera::uts::app {

SearchReport run_sequential(const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  SearchReport report;
  report.counts = search_sequential(options.params, options.sha1);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.policy = "sequential";
  return report;
}

}  // namespace tessera::uts::app
