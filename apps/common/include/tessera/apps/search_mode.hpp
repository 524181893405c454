#pragma once
/// How a search application over task collections (UTS, NQueens) runs, decided from its command
/// line and the steal flags tessera::Context parsed.
///
/// Where it runs is decided by the job: distributed over task collections on several ranks, or
/// when a steal policy or keys are given (`--tessera_steal_policy`, `--tessera_steal_args`, or
/// the deprecated `--policy`, `--steal`); otherwise in this one process. How many threads is
/// `--tessera_workers=N` (workers.hpp) in both: N threads per rank in a distributed search; in
/// one process a pool of N threads stealing from each other, no runtime involved (the same
/// threads, without the messages a one-rank distributed search would send itself). Without it,
/// one process searches sequentially.
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
  collections::steal::StealOptions steal;  ///< the distributed search's policy, keys and workers
};

/// Decides the mode from `workers` (--tessera_workers or --workers, resolved and checked; empty:
/// neither given), the runtime's steal flags (`flags`: --tessera_steal_policy,
/// --tessera_steal_args), the apps' older `policy` (--policy) and `steal_keys` (--steal,
/// key=value; both deprecated aliases, applied after the runtime flags' keys) and the job's
/// `ranks`. Throws tessera::Error naming the flags for a policy given by both --policy and
/// --tessera_steal_policy with different names, or for a bad policy or steal key.
SearchMode resolve_search_mode(std::optional<std::int64_t> workers, const collections::steal::StealFlags& flags,
                               const std::optional<std::string>& policy, const std::vector<std::string>& steal_keys,
                               int ranks);

}  // namespace tessera::apps
