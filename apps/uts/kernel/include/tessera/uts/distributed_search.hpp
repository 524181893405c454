#pragma once
// Counting a UTS tree on every rank of a Tessera job: a task collection with one task per
// node, balanced by distributed work stealing (collections/steal/task_collection.hpp). Rank 0
// seeds the root; a node's task spawns its children's tasks.

#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/collections/steal/steal_stats.hpp>

#include "tessera/uts/params.hpp"
#include "tessera/uts/search.hpp"

namespace tessera {
class Runtime;
}  // namespace tessera

namespace tessera::uts {

struct DistributedSearchResult {
  TreeCounts counts;                          // the whole tree's, on every rank
  collections::steal::IterationStats stats;   // per rank: nodes expanded, steals; seconds on rank 0
};

// Collective. Throws tessera::Error (on every rank alike) if `params` fail validate().
DistributedSearchResult search_distributed(Runtime& rt, const TreeParams& params,
                                           const collections::steal::StealOptions& options,
                                           Sha1Backend backend = default_sha1_backend());

}  // namespace tessera::uts
