#pragma once
// Counting a UTS tree with a pool of worker threads in one process, each node one task.
// A worker expands a node into tasks for its children; idle workers steal the oldest
// (shallowest, so usually the largest) unexpanded subtrees from random victims.

#include <cstddef>

#include "tessera/collections/steal/worker_pool.hpp"
#include "tessera/uts/params.hpp"
#include "tessera/uts/search.hpp"

namespace tessera::uts {

struct WorkerSearchResult {
  TreeCounts counts;
  collections::steal::PoolStats stats;  // per worker: nodes expanded, steals
};

// Throws tessera::Error if `params` fail validate() or `workers` is 0.
WorkerSearchResult search_workers(const TreeParams& params, std::size_t workers,
                                  Sha1Backend backend = default_sha1_backend());

}  // namespace tessera::uts
