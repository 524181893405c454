// Where a tiles run starts: fresh from the options, or from a checkpoint checked against them.
#include "tessera/jacobi/driver/checkpoint.hpp"

#include "tessera/jacobi/driver/modes.hpp"

#include <tessera/tessera.hpp>

#include <fmt/format.h>

namespace tessera::jacobi {

CheckpointState starting_state(const Options& options, const Context& ctx) {
  if (!ctx.restarted()) return CheckpointState{0, options.ny, options.nx, options.tile_rows, options.tile_cols};
  const std::string where = ctx.restart_dir().string();
  // Decoding reads the bytes unchecked: a state of another size would stop the run with a
  // message about a malformed message instead of this one.
  if (ctx.restart_state().size() != sizeof(CheckpointState))
    throw RunError(fmt::format("--restart: the checkpoint {} holds {} bytes of application state, expected {} "
                               "(not written by tessera-jacobi's tiles mode)",
                               where, ctx.restart_state().size(), sizeof(CheckpointState)));
  const auto state = ctx.restart_state<CheckpointState>();
  if (state.ny != options.ny || state.nx != options.nx)
    throw RunError(fmt::format("--restart: the checkpoint {} ran --ny {} --nx {}; this run asks for --ny {} --nx {} "
                               "(expected the same grid)",
                               where, state.ny, state.nx, options.ny, options.nx));
  if (options.tiles_given && (state.tile_rows != options.tile_rows || state.tile_cols != options.tile_cols))
    throw RunError(fmt::format("--restart: the checkpoint {} holds {}x{} tiles; this run asks for --tiles {}x{} "
                               "(drop --tiles to continue with the checkpoint's)",
                               where, state.tile_rows, state.tile_cols, options.tile_rows, options.tile_cols));
  if (state.iteration > options.iterations)
    throw RunError(fmt::format("--iterations {}: the checkpoint {} is after iteration {} (expected at least {})",
                               options.iterations, where, state.iteration, state.iteration));
  return state;
}

}  // namespace tessera::jacobi
