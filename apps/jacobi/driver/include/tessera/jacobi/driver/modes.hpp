#pragma once
/// The two versions of the solver in tessera-jacobi, for the same problem (block.hpp):
///
/// - run_mpi: plain MPI. The ranks form a 2-D Cartesian grid (MPI_Dims_create), each owns one
///   block, exchanges its four edges with MPI_Sendrecv, sweeps, and joins an MPI_Allreduce of
///   the residual.
/// - run_tiles: the same solver ported to a Tessera collection of R x C tiles (several per rank).
///   Each iteration is one phase: rank 0 broadcasts `exchange` to every tile, tiles send their
///   edges to their neighbours as element messages, a tile sweeps when its last halo arrives, and
///   the residual is a collection allreduce. It checkpoints (--checkpoint_every) and restarts
///   (--restart) on any rank count (checkpoint.hpp).
///
/// Both sweep with the same Block::relax, so they produce the same residual and the same field,
/// bit for bit, on any number of ranks and tiles (apps/jacobi/README.md walks through the port).
#include "tessera/jacobi/driver/options.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>

#include <tessera/runtime/error.hpp>

namespace tessera {
class Context;
}

namespace tessera::jacobi {

/// A run's outcome, identical on every rank.
struct Result {
  int iterations = 0;            ///< sweeps done (fewer than asked when the tolerance was met)
  double residual = 0.0;         ///< max |new - old| over the grid in the last sweep
  std::uint64_t fingerprint = 0; ///< Block::fingerprint of the whole final field
  double seconds = 0.0;          ///< wall time of the sweeps, slowest rank
  std::int64_t tile_rows = 0;    ///< the tiling run (a restart's is the checkpoint's)
  std::int64_t tile_cols = 0;
  int resumed_after = 0;         ///< the sweeps a restart found done in its checkpoint (0: none)
  std::string restarted_from;    ///< the checkpoint directory restarted from (empty: none)
};

/// Plain MPI over `comm`. RunError when a rank's block would be empty (more ranks in a grid
/// direction than points).
Result run_mpi(const Options& options, MPI_Comm comm);

/// The collection of tiles on `ctx`'s runtime. RunError when a restart's checkpoint holds another
/// problem (grid or tiling) or more sweeps than --iterations asks for.
Result run_tiles(const Options& options, Context& ctx);

}  // namespace tessera::jacobi
