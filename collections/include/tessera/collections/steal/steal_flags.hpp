#pragma once
/// Runtime flags of task collections.
///
///   --tessera_workers=N   worker threads per rank, the rank's main thread included (default 1,
///                         at most 4096). With N > 1 the rank runs tasks on N threads that steal
///                         from each other (worker_team.hpp) while its main thread alone talks
///                         to other ranks.
///
/// The flag only configures: a program copies `workers` into StealOptions::workers of the task
/// collections it wants to run on several threads (their task functions must then be safe to
/// call concurrently, e.g. by keeping per-worker state indexed by Spawner::worker()).
#include <tessera/runtime/flags.hpp>

#include <cstdint>

namespace tessera::collections::steal {

struct StealFlags : FlagGroup {
  std::int32_t workers = 1;

  void add_to(CLI::App& app) override;
};

}  // namespace tessera::collections::steal
