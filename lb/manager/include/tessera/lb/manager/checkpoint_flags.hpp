#pragma once
/// Runtime flags of checkpoint and restart (collections/checkpoint/checkpoint.hpp).
///
///   --tessera_checkpoint_dir=DIR        where checkpoints go: DIR/phase.<12 digits>/ each
///   --tessera_checkpoint_interval=N     checkpoint at the end of every phase p with (p + 1) % N
///                                       == 0 (0, the default: only when the program asks)
///   --tessera_checkpoint_keep=K         keep the newest K complete checkpoints in DIR (default 2;
///                                       0: keep all); older ones go only once a newer one is complete
///   --tessera_restart=DIR               restart from the newest complete checkpoint in DIR (or
///                                       from DIR itself when it holds a manifest.json)
///
/// Like every checkpoint, the balancer is not part of it: strategy, interval and every other flag
/// come from the restarted run's command line. Bad values raise tessera::Error naming the flag.
#include <tessera/runtime/flags.hpp>

#include <cstdint>
#include <string>

namespace tessera::lb {

struct CheckpointFlags : FlagGroup {
  std::string dir;
  std::int64_t interval = 0;
  std::int64_t keep = 2;
  std::string restart;

  void describe(FlagTable& table) override;
  void validate() const override;
};

}  // namespace tessera::lb
