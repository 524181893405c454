#pragma once
/// The one worker-count flag of the applications, `--tessera_workers=N`, and its older spelling
/// `--workers=N`, which still works with a deprecation warning (as --policy and --steal do for
/// the steal flags). The same count everywhere: the threads of the process (thread pool, work
/// pool) or, in a distributed search, the threads of each rank, the main thread included.
///
/// The name and range are the library's one definition (collections::steal::WorkersFlag): 1 to
/// 4096; more threads than that in one process is a typing error, not a configuration. Apps that start
/// tessera::Context leave `--tessera_workers` to it and read it from its steal flags; the
/// work-pool apps, which run without MPI, parse it themselves.
#include <tessera/collections/steal/steal_options.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace tessera::apps {

inline constexpr std::int64_t kMaxWorkers = collections::steal::WorkersFlag::max;

/// The two spellings as given on the command line.
struct WorkersFlags {
  std::optional<std::int64_t> workers;     ///< --tessera_workers
  std::optional<std::int64_t> deprecated;  ///< --workers, the older spelling
};

/// The worker count `flags` give, or nothing when neither spelling was given. A `speaking`
/// process (rank 0) warns once on stderr, as `program`, that --workers is deprecated. Throws
/// tessera::Error naming the flag for a count outside [1, kMaxWorkers], or for both spellings
/// given with different counts.
std::optional<std::int64_t> resolve_workers(const WorkersFlags& flags, std::string_view program, bool speaking);

}  // namespace tessera::apps
