#include <tessera/lb/manager/checkpoint_flags.hpp>
#include <tessera/runtime/error.hpp>

namespace tessera::lb {

void CheckpointFlags::describe(FlagTable& table) {
  table.option("--tessera_checkpoint_dir", dir, "Directory of checkpoints (one subdirectory phase.<N> each)");
  table.option("--tessera_checkpoint_interval", interval,
               "Checkpoint every N phases into --tessera_checkpoint_dir (0: only when the program asks)");
  table.option("--tessera_checkpoint_keep", keep, "Complete checkpoints kept in --tessera_checkpoint_dir (0: all)");
  table
      .option("--tessera_restart", restart, "Restart from the newest complete checkpoint in DIR, on any number of ranks")
      .shown_as("DIR");
}

void CheckpointFlags::validate() const {
  if (interval < 0)
    throw Error("--tessera_checkpoint_interval=" + std::to_string(interval) + ": expected N >= 0 (0: off)");
  if (keep < 0) throw Error("--tessera_checkpoint_keep=" + std::to_string(keep) + ": expected K >= 0 (0: keep all)");
  if (interval > 0 && dir.empty())
    throw Error("--tessera_checkpoint_interval=" + std::to_string(interval) +
                ": expected --tessera_checkpoint_dir to say where the checkpoints go");
}

}  // namespace tessera::lb
