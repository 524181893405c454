#pragma once
// Counting N-queens solutions on every rank of a Tessera job: a task collection whose root
// task (the empty board, seeded on rank 0) spawns one task per queen on the next row down to
// the cutoff row; a task at the cutoff searches its subtree serially.

#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/collections/steal/steal_stats.hpp>

#include <cstdint>

namespace tessera {
class Runtime;
}  // namespace tessera

namespace tessera::nqueens {

struct DistributedSearchResult {
  std::uint64_t solutions = 0;               // on every rank
  std::uint64_t tasks = 0;                   // tasks run on all ranks, spawning ones included
  collections::steal::IterationStats stats;  // per rank; seconds on rank 0
};

// Collective. Throws tessera::Error (on every rank alike) if n is outside [1, kMaxN]
// or cutoff outside [0, n].
DistributedSearchResult search_distributed(Runtime& rt, std::int32_t n, std::int32_t cutoff,
                                           const collections::steal::StealOptions& options);

}  // namespace tessera::nqueens
