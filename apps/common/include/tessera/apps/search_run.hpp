#pragma once
/// A search app's report: its answer, beside how the search ran (SearchRun, the part that does not
/// depend on what was searched). One function per kind of driver (sequential, thread pool,
/// distributed) makes the SearchRun, so an app's driver only runs its kernel and adds the answer:
///
///   SearchReport<TreeCounts> run_workers(const Options& options) {
///     const Stopwatch clock;
///     const WorkerSearchResult result = search_workers(options.params, options.pool_workers);
///     return {result.counts, pool_run(result.stats, options.pool_workers, clock.seconds())};
///   }
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/collections/steal/steal_stats.hpp>
#include <tessera/collections/steal/worker_pool.hpp>

namespace tessera::apps {

struct SearchRun {
  double seconds = 0;  ///< wall-clock time of the search alone
  std::string policy;  ///< "sequential", "workers", or the distributed victim policy
  std::size_t workers = 1;  ///< threads (per rank, for a distributed search)
  std::uint64_t steals_attempted = 0;
  std::uint64_t steals_successful = 0;
  int ranks = 1;
  std::optional<collections::steal::IterationStats> steal_stats;  ///< distributed searches only
};

/// What a driver returns: `Answer` is the app's (counts, solutions).
template <class Answer>
struct SearchReport {
  Answer answer;
  SearchRun run;
};

/// A search that ran on this thread alone for `seconds`.
SearchRun sequential_run(double seconds);
/// A search that ran for `seconds` on a pool of `workers` threads that stole from each other.
SearchRun pool_run(const collections::steal::PoolStats& stats, std::size_t workers, double seconds);
/// A distributed search that ran with `steal` on `ranks` ranks (it times itself: `stats.seconds`).
SearchRun distributed_run(const collections::steal::IterationStats& stats,
                          const collections::steal::StealOptions& steal, int ranks);

/// Wall-clock seconds since construction, for timing a driver's search alone.
class Stopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace tessera::apps
