#pragma once
/// Checkpoint and restart of tessera-jacobi's tiles mode (collections/checkpoint/checkpoint.hpp).
///
/// A checkpoint is the collection of tiles, written by tessera::Context (each tile's block, halo
/// count and last change travel through its serialize(), as in migration), plus a CheckpointState:
/// the sweeps done and the problem they were done on. A restart, on any rank count, gets the tiles
/// back from the checkpoint instead of constructing them and continues with the next sweep. The
/// sweep's arithmetic does not depend on where a tile lives (block.hpp), so the restarted run ends
/// with the uninterrupted run's residual and fingerprint, bit for bit.
///
/// The tiling does not depend on the rank count here, but the collection a restart creates must
/// have the checkpoint's bounds: a restart takes the checkpoint's tiling, and refuses a --tiles
/// that differs from it rather than silently ignoring it.
#include "tessera/jacobi/driver/options.hpp"

#include <cstdint>

namespace tessera {
class Context;
}

namespace tessera::jacobi {

/// What a checkpoint stores beside the tiles. Trivially copyable: stored as its bytes.
struct CheckpointState {
  std::int64_t iteration = 0;  ///< sweeps done when the checkpoint was written
  std::int64_t ny = 0;
  std::int64_t nx = 0;
  std::int64_t tile_rows = 0;
  std::int64_t tile_cols = 0;
};

/// Where the run starts: no sweep done and the options' tiling; or, when `ctx` restarted, the
/// checkpoint's state once it matches the options. RunError, the same on every rank, when the
/// checkpoint holds another grid or another tiling than an explicit --tiles, when it is past
/// --iterations, or when its state is not a CheckpointState.
CheckpointState starting_state(const Options& options, const Context& ctx);

}  // namespace tessera::jacobi
