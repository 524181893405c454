#include "tessera/pic/serial_run.hpp"

#include <algorithm>

#include "tessera/pic/id_table.hpp"

namespace tessera::pic {

std::vector<Tile> make_tiles(const Problem& problem, const TileGrid& grid) {
  std::vector<Tile> tiles;
  tiles.reserve(static_cast<std::size_t>(grid.count()));
  IdTable ids(grid);
  for (std::int64_t t = 0; t < grid.count(); ++t) {
    tiles.emplace_back(grid.rect(grid.coord(t)), grid.grid_size());
    ids.record(grid.coord(t), tiles.back().draw(problem));
  }
  ids.finish();
  for (std::int64_t t = 0; t < grid.count(); ++t) {
    tiles[static_cast<std::size_t>(t)].place(problem, ids.first_ids(grid.coord(t)));
  }
  return tiles;
}

std::vector<Particle> sorted_by_id(const std::vector<Tile>& tiles) {
  std::vector<Particle> all;
  for (const Tile& tile : tiles) {
    all.insert(all.end(), tile.particles().begin(), tile.particles().end());
  }
  std::sort(all.begin(), all.end(), [](const Particle& a, const Particle& b) { return a.id < b.id; });
  return all;
}

SerialRun::SerialRun(const Problem& problem, const TileGrid& grid) : problem_(problem), grid_(grid) {
  problem_.validate();
  grid_.check_travel(problem_);
  tiles_ = make_tiles(problem_, grid_);
  for (const Tile& tile : tiles_) {
    placed_ += tile.size();
  }
}

UpdateTime SerialRun::step() {
  UpdateTime total;
  std::vector<Departures> out;
  out.reserve(tiles_.size());
  // All tiles move before any delivery, as in a distributed step, so no particle moves twice.
  for (Tile& tile : tiles_) {
    total += tile.move();
    out.push_back(tile.take_departures());
  }
  for (std::int64_t t = 0; t < grid_.count(); ++t) {
    for (Direction d : kAllDirections) {
      const TileCoord to = grid_.neighbour(grid_.coord(t), d);
      tiles_[static_cast<std::size_t>(grid_.index(to))].accept(out[static_cast<std::size_t>(t)].bucket(d));
    }
  }
  ++steps_done_;
  return total;
}

Verification SerialRun::verify() const {
  Verification total;
  for (const Tile& tile : tiles_) {
    total.merge(tile.verify(problem_, steps_done_));
  }
  return total;
}

}  // namespace tessera::pic
