// The solver ported to a collection of tiles: the end point of the port in README.md, with
// checkpoint and restart (checkpoint.hpp).
#include "tessera/jacobi/block.hpp"
#include "tessera/jacobi/driver/checkpoint.hpp"
#include "tessera/jacobi/driver/modes.hpp"

#include <tessera/tessera.hpp>

#include <cstddef>
#include <vector>

namespace tessera::jacobi {

namespace {

using collections::Index2D;

// The grid and how it is cut into tiles: what every tile is constructed from.
struct Tiling {
  std::int64_t ny = 0;
  std::int64_t nx = 0;
  std::int64_t tile_rows = 0;
  std::int64_t tile_cols = 0;
};

// One tile of the grid: a Block that the runtime may place on any rank. Its state is the block
// and this iteration's halo count; it travels through serialize() when it migrates and when it
// is checkpointed.
class Tile : public collections::Element<Tile, 2> {
 public:
  // The name checkpoints record for this type and a restart checks: fixed, unlike the compiler's.
  static constexpr std::string_view checkpoint_tag = "jacobi.Tile";

  Tile() = default;
  Tile(const Index2D& idx, const Tiling& t)
      : block_(part(t.ny, t.tile_rows, idx[0]), part(t.nx, t.tile_cols, idx[1]), t.ny, t.nx) {
    for (Side side : kSides) expected_ += block_.on_boundary(side) ? 0 : 1;
  }

  // Broadcast once per iteration: send each edge to the tile on that side.
  void exchange() {
    for (Side side : kSides)
      if (!block_.on_boundary(side)) proxy()[neighbour(side)].send<&Tile::halo>(opposite(side), block_.edge(side));
    sent_ = true;
    sweep_if_ready();
  }

  // A neighbour's edge for this tile's halo on `side`. It may arrive before this tile's own
  // exchange: the broadcast reaches tiles on different ranks at different times.
  void halo(Side side, std::vector<double> values) {
    block_.set_halo(side, values);
    ++received_;
    sweep_if_ready();
  }

  double change() const { return change_; }
  std::uint64_t fingerprint() const { return block_.fingerprint(); }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(block_, expected_, received_, sent_, change_);
  }

 private:
  // The sweep overwrites the edges, so it waits until they have left as well as for every halo.
  void sweep_if_ready() {
    if (!sent_ || received_ < expected_) return;
    change_ = block_.relax();
    sent_ = false;
    received_ = 0;
  }

  Index2D neighbour(Side side) const {
    Index2D n = index();
    switch (side) {
      case Side::north: n[0] -= 1; break;
      case Side::south: n[0] += 1; break;
      case Side::west: n[1] -= 1; break;
      case Side::east: n[1] += 1; break;
    }
    return n;
  }

  Block block_;
  int expected_ = 0;   // neighbours this tile has (sides not on the global boundary)
  int received_ = 0;   // halos received in the current iteration
  bool sent_ = false;  // this iteration's edges have left
  double change_ = 0;  // residual of this tile's last sweep
};

}  // namespace

Result run_tiles(const Options& options, Context& ctx) {
  Runtime& rt = ctx.runtime();
  // On a restart the state, and with it the tiling, is the checkpoint's.
  CheckpointState state = starting_state(options, ctx);
  const Tiling tiling{state.ny, state.nx, state.tile_rows, state.tile_cols};
  // On a restart the tiles come back from the checkpoint (where they were, or at their homes on
  // another rank count) instead of being constructed.
  auto tiles = collections::make_collection<Tile>(rt, Index2D{tiling.tile_rows, tiling.tile_cols}, tiling);
  // --tessera_checkpoint_interval checkpoints inside phase_end, after the phase's sweeps.
  ctx.set_checkpoint_state([&state] {
    const auto* bytes = reinterpret_cast<const std::byte*>(&state);
    return std::vector<std::byte>(bytes, bytes + sizeof state);
  });

  Result result;
  result.tile_rows = tiling.tile_rows;
  result.tile_cols = tiling.tile_cols;
  result.iterations = static_cast<int>(state.iteration);
  // Each tile keeps its last sweep's change, so a restart knows the residual it stopped at.
  if (ctx.restarted()) {
    result.resumed_after = result.iterations;
    result.restarted_from = ctx.restart_dir().string();
    result.residual = tiles.allreduce(0.0, op::max{}, [](Tile& t) { return t.change(); });
  }
  // A checkpoint that had already met the tolerance is where the uninterrupted run stopped.
  const bool converged = ctx.restarted() && result.residual < options.tolerance;
  rt.collectives().barrier();
  const double start = wall_time();
  for (int k = result.iterations; k < options.iterations && !converged; ++k) {
    if (rt.rank() == 0) tiles.broadcast_from_this_rank<&Tile::exchange>();
    state.iteration = k + 1;  // what an interval checkpoint inside phase_end records: the sweep is done then
    ctx.phase_end();  // collective: returns once every halo of this iteration was delivered
    result.residual = tiles.allreduce(0.0, op::max{}, [](Tile& t) { return t.change(); });
    result.iterations = k + 1;
    if (options.checkpoint_every > 0 && result.iterations % options.checkpoint_every == 0) ctx.checkpoint_now(state);
    if (result.residual < options.tolerance) break;
  }
  ctx.set_checkpoint_state({});  // `state` ends with this call
  result.seconds = rt.collectives().allreduce(wall_time() - start, op::max{});
  result.fingerprint = tiles.allreduce(std::uint64_t{0}, [](std::uint64_t a, const std::uint64_t& b) { return a ^ b; },
                                       [](Tile& t) { return t.fingerprint(); });
  tiles.destroy();
  return result;
}

}  // namespace tessera::jacobi
