#pragma once
/// A color of the AMT mode: one tile of the overdecomposed grid as a migratable collection element.
///
/// The collection is 2-D with bounds (tiles_x, tiles_y) of Decomposition::colors(); the element at
/// index (i, j) owns tile (i, j). One step of a color is one handler, `advance(step)`, delivered by
/// a broadcast: it first accepts the particles its neighbours sent during the previous step, then
/// moves every particle (the timed particle update, and therefore the color's load in the phase),
/// then hands each non-empty bucket of departures to the neighbour color in that direction: as an
/// element message, `arrive(step, bytes)`, or, when that color is on this rank, by calling it
/// (take_arrivals). Local deliveries are therefore not messages: the LB data's communication
/// edges count only the particles that cross ranks.
///
/// Arrivals are tagged with the step that produced them because a neighbour may run step s before
/// this color does: its step-s particles must wait in the inbox until this color has moved its
/// own, or they would move twice. Arrivals of a step this color has moved already join its tile
/// at once. The inbox is part of the migrated state, so a color can move between ranks
/// with particles still waiting in it.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <cereal/types/vector.hpp>

#include <tessera/collections.hpp>

#include "tessera/pic/color_cuts.hpp"
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

class Color : public collections::Element<Color, 2> {
 public:
  /// The element type's name in checkpoints (stable across compilers and refactorings).
  static constexpr std::string_view checkpoint_tag = "tessera.pic.Color";

  /// The state a migration deserializes into.
  Color() = default;

  /// An empty color for tile `idx` = (i, j) of a tiles_x x tiles_y grid of side `grid_size` cells.
  Color(const collections::Index2D& idx, std::int64_t grid_size, std::int64_t tiles_x, std::int64_t tiles_y);

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
    archive(tile_, tiles_x_, tiles_y_, inbox_, advanced_);
  }

 private:
  void accept_before(std::int64_t step);

  Tile tile_;
  std::int64_t tiles_x_ = 0;
  std::int64_t tiles_y_ = 0;
  std::vector<ArrivalBatch> inbox_;
  std::int64_t advanced_ = 0;  // the last step this color moved its particles in
  UpdateTime last_update_{};
  std::uint64_t last_moved_ = 0;
  double exchange_s_ = 0.0;
};

}  // namespace tessera::pic::driver
