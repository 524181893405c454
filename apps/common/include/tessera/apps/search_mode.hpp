#pragma once
/// How a search application over task collections (UTS, NQueens) runs, decided from its command
/// line and the steal flags tessera::Context parsed.
///
/// A search runs one of three ways: sequentially; on a pool of threads in one process
/// (`--workers=N`, no runtime); or distributed over task collections (`--policy`, `--steal`,
/// `--tessera_steal_policy`, `--tessera_steal_args`, `--tessera_workers` > 1, or several ranks),
/// with worker threads inside each rank.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tessera/collections/steal/steal_flags.hpp>
#include <tessera/collections/steal/steal_options.hpp>

namespace tessera::apps {

struct SearchMode {
  std::size_t pool_workers = 0;  ///< 0: not a thread pool; N >= 1: a pool of N threads
  bool distributed = false;      ///< over task collections, on every rank of the job
  collections::steal::StealOptions steal;  ///< the distributed search's policy and keys
};

/// Decides the mode from the flags: `workers` (--workers), the runtime's steal flags (`flags`:
/// --tessera_steal_policy, --tessera_steal_args, --tessera_workers), the apps' older `policy`
/// (--policy) and `steal_keys` (--steal, key=value; both deprecated aliases, applied after the
/// runtime flags' keys) and the job's `ranks`. Throws std::invalid_argument for --workers outside
/// [1, 4096] or combined with a distributed search, or for a policy given by both --policy and
/// --tessera_steal_policy with different names, and tessera::Error for a bad policy or steal key
/// (the message names the input).
SearchMode resolve_search_mode(std::optional<std::int64_t> workers, const collections::steal::StealFlags& flags,
                               const std::optional<std::string>& policy, const std::vector<std::string>& steal_keys,
                               int ranks);

}  // namespace tessera::apps
