#pragma once
/// Re-cutting the colors between steps (the granularity lever): when one color holds too
/// large a share of a rank's particles for any balancer to even the ranks out, the driver moves
/// the color boundaries (ColorCuts) so that the loaded region is split among many colors and the
/// empty one among few, then asks the LB manager to balance the new colors at this phase's end.
///
/// The rule, checked after every step with one MPI_Allreduce of one integer. Re-cut when
///   - the heaviest color holds more than 1 / (kColorsPerRankShare x ranks) of the particles, a
///     quarter of an evenly loaded rank's share (a drifting patch in an even split, at the start), or
///   - the last balancing left an imbalance above lb::AutoInterval::kTolerance (the colors are too
///     coarse for the balancer: `balancer_stuck`),
/// and in both cases the heaviest color has grown to more than kRegrowth times what the heaviest
/// held right after the last re-cut (so a distribution that no cut can split, such as one loaded
/// column, is not re-cut again and again). Re-cutting moves about half the particles to another
/// color, so it waits until the balancer cannot do without it. A re-cut:
///   1. settles every local color (waiting arrivals join their tiles);
///   2. sums the particle count of every column and every row over all ranks (MPI_Allreduce of
///      2 L integers, so every rank computes the same cuts);
///   3. computes ColorCuts::balanced with area weight kAreaWeight, each color at least a step's
///      travel wide and high;
///   4. reshapes every local color, then hands the particles that left each one to the color now
///      holding their cell: directly when that color is on this rank, else as a Color::adopt
///      message; and drains.
/// Particles do not change, only which color holds them, so the run stays bit-for-bit the same as
/// the serial one.
///
/// The colors' measured loads describe the old cuts. For the balancing that follows, the driver
/// predicts each color's load as its new particle count times the seconds per particle the ranks
/// measured in the phase, summed over ranks (recut_load_model).
#include <mpi.h>

#include <cstdint>
#include <unordered_map>

#include <tessera/tessera.hpp>

#include "tessera/pic/driver/color.hpp"
#include "tessera/pic/problem.hpp"
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic::driver {

class Recutter {
 public:
  /// Colors per rank that a rank's share should at least be split into.
  static constexpr double kColorsPerRankShare = 4.0;
  /// ColorCuts' area weight: half of the strips by particles, half by cells.
  static constexpr double kAreaWeight = 1.0;
  /// Growth of the heaviest color since the last re-cut that a new one needs.
  static constexpr double kRegrowth = 1.25;

  /// `placed`: the particles of the run (conserved). Throws InputError if the grid's colors cannot
  /// be a step's travel wide and high (TileGrid::check_travel says the same before).
  Recutter(MPI_Comm comm, const TileGrid& grid, const Problem& problem, std::uint64_t placed);

  /// Collective on `comm`, between steps, with the runtime quiet: re-cuts if the rule above says
  /// so and returns whether it did. `balancer_stuck`: the last balancing left I above the
  /// tolerance (the same on every rank: it comes from the reduced LB report).
  bool maybe_recut(Runtime& rt, const collections::CollectionProxy<Color>& colors, bool balancer_stuck);

  /// Re-cuts so far.
  std::int64_t recuts() const { return recuts_; }
  /// The communicator the rule reduces over.
  MPI_Comm comm() const { return comm_; }

 private:
  std::uint64_t heaviest_color(const collections::CollectionProxy<Color>& colors) const;
  void recut(Runtime& rt, const collections::CollectionProxy<Color>& colors);

  MPI_Comm comm_;
  TileGrid grid_;
  std::int64_t min_width_;
  std::int64_t min_height_;
  double share_limit_;         // particles a color may hold while the balancer copes
  double regrown_ = 0.0;       // kRegrowth x the heaviest color after the last re-cut
  std::int64_t recuts_ = 0;
};

/// Load model for the phase end right after a re-cut: a migratable color's load is its particle
/// count now times `seconds_per_particle` (this rank's, measured on the clock the LB uses); fixed
/// objects count 0, as in tessera-pic's model. `counts` maps an element's linear id to its count.
lb::LoadModel recut_load_model(std::unordered_map<std::uint64_t, std::uint64_t> counts,
                                       double seconds_per_particle);

}  // namespace tessera::pic::driver
