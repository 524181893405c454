#pragma once
/// A tile of the PIC grid: a rectangle of cells and the particles currently inside it.
///
/// The tile is the unit every PIC driver works with: the SPMD mode holds one tile per rank, the AMT
/// mode one tile per color in a migratable collection. A step is
///
///     UpdateTime t = tile.move();               // every particle moves once; timed
///     Departures out = tile.take_departures();  // the ones that left, by neighbour direction
///     ... deliver out.bucket(d) to the neighbour tile in direction d ...
///     neighbour.accept(arrivals);               // particles already moved this step
///
/// Because a particle's trajectory depends only on itself (the grid charges are fixed), the final
/// particles are bit-for-bit the same for every decomposition and delivery order.
///
/// Initialization is two-phase so that particle ids 1..N follow the global cell order whatever
/// the decomposition: `draw` returns the particle count of each of the tile's columns, a driver
/// numbers them globally (see IdTable), then `place` creates the particles.
///
/// A tile is serializable with cereal (rect, grid size, particles). Serialize it between steps,
/// after its departures were taken.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <cereal/types/vector.hpp>

#include "tessera/pic/geometry.hpp"
#include "tessera/pic/particle.hpp"
#include "tessera/pic/problem.hpp"
#include "tessera/pic/timing.hpp"
#include "tessera/pic/verification.hpp"

namespace tessera::pic {

/// The particles that left a tile in one step, one bucket per neighbour direction.
struct Departures {
  std::array<std::vector<Particle>, kDirections> buckets;

  std::vector<Particle>& bucket(Direction d) { return buckets[index_of(d)]; }
  const std::vector<Particle>& bucket(Direction d) const { return buckets[index_of(d)]; }
  std::size_t total() const;
};

class Tile {
 public:
  /// An empty tile, the state cereal deserializes into.
  Tile() = default;

  /// An empty tile covering `cells` of a grid of side `grid_size`.
  Tile(CellRect cells, std::int64_t grid_size);

  const CellRect& cells() const { return cells_; }
  std::int64_t grid_size() const { return grid_size_; }
  std::span<const Particle> particles() const { return particles_; }
  std::size_t size() const { return particles_.size(); }

  /// Draws the particle count of every cell of the tile (the LCG jumped to index 2 (y + x L) per
  /// column) and returns the count of each column, west to east: `cells().width` entries.
  std::vector<std::uint64_t> draw(const Problem& problem);

  /// Creates the particles drawn by `draw`. The particles of column x0 + c get consecutive ids from
  /// first_ids[c] on, cell by cell south to north. Throws std::logic_error if `draw` was not called
  /// or `first_ids` does not have one entry per column.
  void place(const Problem& problem, std::span<const std::uint64_t> first_ids);

  /// Moves every particle one step; those that leave the tile go to the departures. Returns the
  /// time of the whole update (seconds, wall and thread CPU).
  UpdateTime move();

  /// The particles that left during the last `move` calls; leaves none behind.
  Departures take_departures();

  /// Adds particles that moved into this tile. Throws std::logic_error if one lies outside the
  /// tile (a particle delivered to the wrong neighbour).
  void accept(std::span<const Particle> arrivals);

  /// Makes the tile cover `cells` instead (a re-cut, ColorCuts) and returns the particles that lie
  /// outside it now, removed from the tile. Call it between steps, with no departures pending
  /// (throws std::logic_error otherwise).
  std::vector<Particle> reshape(CellRect cells);

  /// Checks every particle against its analytic position after `steps` steps.
  Verification verify(const Problem& problem, std::int64_t steps) const;

  template <class Archive>
  void serialize(Archive& archive) {
    archive(cells_, grid_size_, particles_);
  }

 private:
  Direction direction_to(std::int64_t x, std::int64_t y) const;

  CellRect cells_{};
  std::int64_t grid_size_ = 0;
  std::vector<Particle> particles_;
  Departures departures_;
  std::vector<std::uint32_t> drawn_;  // per-cell counts between draw and place, column-major
};

}  // namespace tessera::pic
