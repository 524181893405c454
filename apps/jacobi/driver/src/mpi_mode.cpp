// The plain MPI solver: the starting point of the port in README.md.
#include "tessera/jacobi/block.hpp"
#include "tessera/jacobi/driver/modes.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::jacobi {

namespace {

// The ranks on each side of this one in the Cartesian grid (MPI_PROC_NULL on the boundary).
struct Neighbours {
  int rank[4];
};

// Sends this block's edge on `side` to the neighbour there and receives that neighbour's edge
// into the halo: one MPI_Sendrecv per side, so no ordering between ranks can deadlock.
void exchange_side(Block& block, Side side, const Neighbours& n, MPI_Comm cart) {
  const int to = n.rank[static_cast<int>(side)];
  if (to == MPI_PROC_NULL) return;
  std::vector<double> out = block.edge(side);
  std::vector<double> in(out.size());
  const int count = static_cast<int>(out.size());
  MPI_Sendrecv(out.data(), count, MPI_DOUBLE, to, 0, in.data(), count, MPI_DOUBLE, to, 0, cart, MPI_STATUS_IGNORE);
  block.set_halo(side, in);
}

}  // namespace

Result run_mpi(const Options& options, MPI_Comm comm) {
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  int dims[2] = {0, 0};
  MPI_Dims_create(ranks, 2, dims);
  if (dims[0] > options.ny || dims[1] > options.nx)
    throw RunError(fmt::format("--mode mpi on {} ranks ({}x{} rank grid) with --ny {} --nx {}: expected at "
                               "least one point per rank in each direction",
                               ranks, dims[0], dims[1], options.ny, options.nx));
  const int periodic[2] = {0, 0};
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(comm, 2, dims, periodic, 0, &cart);
  int rank = 0;
  int coords[2] = {0, 0};
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  Neighbours n{};
  MPI_Cart_shift(cart, 0, 1, &n.rank[static_cast<int>(Side::north)], &n.rank[static_cast<int>(Side::south)]);
  MPI_Cart_shift(cart, 1, 1, &n.rank[static_cast<int>(Side::west)], &n.rank[static_cast<int>(Side::east)]);

  Block block(part(options.ny, dims[0], coords[0]), part(options.nx, dims[1], coords[1]), options.ny, options.nx);
  Result result;
  result.tile_rows = options.tile_rows;  // unused by this mode, but reported alike
  result.tile_cols = options.tile_cols;
  MPI_Barrier(cart);
  const double start = MPI_Wtime();
  for (int k = 0; k < options.iterations; ++k) {
    for (Side side : kSides) exchange_side(block, side, n, cart);
    const double change = block.relax();
    MPI_Allreduce(&change, &result.residual, 1, MPI_DOUBLE, MPI_MAX, cart);
    result.iterations = k + 1;
    if (result.residual < options.tolerance) break;
  }
  const double elapsed = MPI_Wtime() - start;
  MPI_Allreduce(&elapsed, &result.seconds, 1, MPI_DOUBLE, MPI_MAX, cart);
  const std::uint64_t print = block.fingerprint();
  MPI_Allreduce(&print, &result.fingerprint, 1, MPI_UINT64_T, MPI_BXOR, cart);
  MPI_Comm_free(&cart);
  return result;
}

}  // namespace tessera::jacobi
