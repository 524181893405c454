#pragma once
// Counting N-queens solutions with a pool of worker threads in one process. The root task
// spawns one task per queen on row 0, and so on down to the cutoff row; a task at the
// cutoff searches its subtree serially.

#include <cstddef>
#include <cstdint>

#include "tessera/collections/steal/worker_pool.hpp"

namespace tessera::nqueens {

struct WorkerSearchResult {
  std::uint64_t solutions = 0;
  std::uint64_t tasks = 0;  // tasks run, the spawning ones above the cutoff included
  collections::steal::PoolStats stats;
};

// Throws tessera::Error if n is outside [1, kMaxN], cutoff outside [0, n], or
// workers is 0.
WorkerSearchResult search_workers(std::int32_t n, std::int32_t cutoff, std::size_t workers);

}  // namespace tessera::nqueens
