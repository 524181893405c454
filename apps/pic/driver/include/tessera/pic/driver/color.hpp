#pragma once
/// A color of the AMT mode: one tile of the overdecomposed grid as a migratable collection element.
///
/// The collection is 3-D with bounds (tiles_x, tiles_y, pieces) of Decomposition::colors(); the
/// element at index (i, j, p - 1) owns piece p of tile (i, j) (color_pieces.hpp): piece 1, the
/// whole tile, unless colors split and merge at balancings. One step of a color is one handler, `advance(step)`, delivered by
/// a broadcast: it first accepts the particles its neighbours sent during the previous step, then
/// moves every particle (the timed particle update, and therefore the color's load in the phase),
/// then hands each non-empty bucket of departures to the neighbour color in that direction: as an
/// element message, `arrive(step, bytes)`, or, when that color is on this rank, by calling it
/// (take_arrivals). Whole colors send by direction to their 8 neighbours; split colors send each
/// particle to the color the rank's ColorDirectory names for its cell. Local deliveries are therefore not messages: the LB data's communication
/// edges count only the particles that cross ranks.
///
/// Arrivals are tagged with the step that produced them because a neighbour may run step s before
/// this color does: its step-s particles must wait in the inbox until this color has moved its
/// own, or they would move twice. Arrivals of a step this color has moved already join its tile
/// at once. The inbox is part of the migrated state, so a color can move between ranks
/// with particles still waiting in it.
///
/// Split and merge (--tessera_lb_split_above / _merge_below): split() divides the
/// color's cells along its longer side, and its particles with them, into pieces 2p and 2p + 1;
/// merge() joins the two halves of piece p on one rank back into piece p. A particle's path does
/// not depend on which color holds it, so the results stay bit-for-bit the SPMD run's.
#include <array>
#include <optional>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <cereal/types/vector.hpp>

#include <tessera/collections.hpp>

#include "tessera/pic/color_cuts.hpp"
#include "tessera/pic/driver/color_directory.hpp"
#include "tessera/pic/particle.hpp"
#include "tessera/pic/tile.hpp"
#include "tessera/pic/timing.hpp"

namespace tessera::pic::driver {

/// Particles that reached a color, with the step they moved in.
struct ArrivalBatch {
  std::int64_t step = 0;
  std::vector<Particle> particles;

  template <class Archive>
  void serialize(Archive& archive) {
    archive(step, particles);
  }
};

class Color : public collections::Element<Color, 3> {
 public:
  /// The element type's name in checkpoints (stable across compilers and refactorings).
  static constexpr std::string_view checkpoint_tag = "tessera.pic.Color";

  /// The state a migration deserializes into.
  Color() = default;

  /// An empty color for piece idx[2] + 1 of tile (idx[0], idx[1]) of a tiles_x x tiles_y grid of
  /// side `grid_size` cells; `directory`: the object group its handlers route particles with.
  Color(const collections::Index3D& idx, std::int64_t grid_size, std::int64_t tiles_x, std::int64_t tiles_y,
        ObjGroup<ColorDirectory> directory);

  Tile& tile() { return tile_; }
  const Tile& tile() const { return tile_; }

  /// Handler: accepts the arrivals of steps before `step`, moves every particle once, and sends the
  /// departures to the neighbour colors. Records the update time and the particles moved.
  void advance(std::int64_t step);

  /// Handler: `bytes` holds whole Particles (raw bytes) that moved into this color during `step`.
  void arrive(std::int64_t step, std::span<const std::byte> bytes);

  /// `particles` moved into this color during `step` (what arrive() receives, or a neighbour on
  /// this rank hands over directly). Not a handler.
  void take_arrivals(std::int64_t step, std::span<const Particle> particles);

  /// Accepts every waiting arrival (after the last step, before verification, before a re-cut).
  /// Not a handler: the driver calls it on local colors once the runtime is quiet.
  void settle();

  /// Re-cut (recut.hpp): makes this color cover its rectangle of `cuts` and returns the particles
  /// now outside it, by the color that holds their cell. Not a handler: the driver calls it on
  /// every local color after settle(), before sending any of them.
  std::vector<std::pair<TileCoord, std::vector<Particle>>> reshape(const ColorCuts& cuts);
  /// Handler: particles (raw bytes) whose cells a re-cut gave to this color; they have moved in
  /// the same steps as this color's own.
  void adopt(std::span<const std::byte> bytes);

  /// Split (collections/element.hpp): the halves of this color along its longer side, each with
  /// the particles in its cells; none if it is one cell.
  std::vector<std::pair<collections::Index3D, Color>> split();
  /// A piece's share of the load: the particles it holds.
  double split_weight() const { return static_cast<double>(held()); }
  /// Piece p > 1 merges into piece p / 2; a whole tile does not merge.
  std::optional<collections::Index3D> merge_into() const;
  /// Both halves of piece `into` (on this rank) back into it; nothing if `siblings` are not exactly
  /// those two halves.
  static std::optional<Color> merge(const collections::Index3D& into, std::span<Color* const> siblings);
  /// Counts the migration in the rank's ColorDirectory.
  void on_arrived();

  /// The particle update of the last advance(): time (seconds) and particles moved. Read by the
  /// driver after the step drained and before the phase ends, so it never needs to migrate.
  const UpdateTime& last_update() const { return last_update_; }
  std::uint64_t last_moved() const { return last_moved_; }

  /// Wall seconds this color spent exchanging particles (accepting arrivals, taking departures,
  /// sending them, receiving them) since the last call; resets the count. Read with last_update().
  double take_exchange_seconds();

  /// Particles this color holds: in its tile and waiting in its inbox.
  std::uint64_t held() const;
  /// Bytes of the particles it holds (tile and inbox): what migrating it moves, as the LB data
  /// records it (task_footprint_bytes) for the advisor's migration cost.
  double footprint_bytes() const { return static_cast<double>(held() * sizeof(Particle)); }

  template <class Archive>
  void serialize(Archive& archive) {
    archive(tile_, tiles_x_, tiles_y_, inbox_, advanced_, directory_);
  }

 private:
  void accept_before(std::int64_t step);
  // A color of `cells` with no particles and this one's grid, progress and directory.
  Color empty_piece(const CellRect& cells) const;
  void send_by_direction(std::int64_t step, const Departures& out);
  void send_by_cell(std::int64_t step, const Departures& out, const PieceMap& map);
  void deliver(std::int64_t step, const collections::Index3D& to, std::span<const Particle> particles);

  Tile tile_;
  std::int64_t tiles_x_ = 0;
  std::int64_t tiles_y_ = 0;
  std::vector<ArrivalBatch> inbox_;
  std::int64_t advanced_ = 0;  // the last step this color moved its particles in
  ObjGroup<ColorDirectory> directory_;
  UpdateTime last_update_{};
  std::uint64_t last_moved_ = 0;
  double exchange_s_ = 0.0;
};

}  // namespace tessera::pic::driver
