#include "tessera/pic/driver/color.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "tessera/pic/driver/time_to_solution.hpp"
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic::driver {

namespace {

// The particles a message carries as raw bytes (arrive, adopt).
std::span<const Particle> particles_of(std::span<const std::byte> bytes) {
  if (bytes.size() % sizeof(Particle) != 0) {
    throw std::logic_error("a particle message is not a whole number of particles");
  }
  return {reinterpret_cast<const Particle*>(bytes.data()), bytes.size() / sizeof(Particle)};
}

// Vectors of colors (a split's pieces) must move them, not copy their particles, as they grow.
static_assert(std::is_nothrow_move_constructible_v<Color>);

}  // namespace

Color::Color(const collections::Index3D& idx, std::int64_t grid_size, std::int64_t tiles_x, std::int64_t tiles_y,
             ObjGroup<ColorDirectory> directory)
    : tile_(piece_rect(TileGrid(grid_size, tiles_x, tiles_y).rect({idx[0], idx[1]}), piece_of(idx).piece), grid_size),
      tiles_x_(tiles_x),
      tiles_y_(tiles_y),
      directory_(std::move(directory)) {}

void Color::advance(std::int64_t step) {
  const Clock::time_point start = Clock::now();
  accept_before(step);
  last_moved_ = tile_.size();
  const Clock::time_point update_start = Clock::now();
  last_update_ = tile_.move();
  advanced_ = step;
  const Clock::time_point update_end = Clock::now();
  exchange_s_ += std::chrono::duration<double>(update_start - start).count();
  const Departures out = tile_.take_departures();
  const ColorDirectory& directory = *directory_.local();
  if (directory.by_cell()) {
    send_by_cell(step, out, directory.map());
  } else {
    send_by_direction(step, out);
  }
  exchange_s_ += seconds_since(update_end);
}

void Color::send_by_direction(std::int64_t step, const Departures& out) {
  const TileGrid grid(tile_.grid_size(), tiles_x_, tiles_y_);
  const TileCoord me{index()[0], index()[1]};
  for (Direction d : kAllDirections) {
    const std::vector<Particle>& bucket = out.bucket(d);
    if (bucket.empty()) continue;
    const TileCoord to = grid.neighbour(me, d);
    deliver(step, {to.i, to.j, 0}, bucket);
  }
}

void Color::send_by_cell(std::int64_t step, const Departures& out, const PieceMap& map) {
  // A color's departures reach a handful of colors, and mostly the one the previous particle
  // went to: test that one's cells first, then the others', and only then ask the map.
  struct Destination {
    PieceId id;
    CellRect cells;
    std::vector<Particle> particles;
  };
  std::vector<Destination> to;
  std::size_t last = 0;
  for (const std::vector<Particle>& bucket : out.buckets) {
    for (const Particle& p : bucket) {
      const auto x = static_cast<std::int64_t>(p.x);
      const auto y = static_cast<std::int64_t>(p.y);
      if (to.empty() || !to[last].cells.contains(x, y)) {
        last = 0;
        while (last < to.size() && !to[last].cells.contains(x, y)) ++last;
        if (last == to.size()) {
          const PieceId id = map.locate(x, y);
          to.push_back({id, map.rect(id), {}});
        }
      }
      to[last].particles.push_back(p);
    }
  }
  for (const Destination& d : to) deliver(step, index_of(d.id), d.particles);
}

void Color::deliver(std::int64_t step, const collections::Index3D& to, std::span<const Particle> particles) {
  // A color on this rank takes them at once, as Charm++'s ckLocal() allows: no message to pack
  // and deliver, one copy of the particles fewer.
  if (Color* local = proxy().local(to)) {
    local->take_arrivals(step, particles);
  } else {
    proxy()[to].send<&Color::arrive>(step, std::as_bytes(particles));
  }
}

Color Color::empty_piece(const CellRect& cells) const {
  Color piece;
  piece.tile_ = Tile(cells, tile_.grid_size());
  piece.tiles_x_ = tiles_x_;
  piece.tiles_y_ = tiles_y_;
  piece.advanced_ = advanced_;
  piece.directory_ = directory_;
  return piece;
}

std::vector<std::pair<collections::Index3D, Color>> Color::split() {
  std::vector<std::pair<collections::Index3D, Color>> pieces;
  const CellRect whole = tile_.cells();
  const PieceId me = piece_of(index());
  // Piece numbers p run to the collection's third bound (index p - 1).
  if (!splittable(whole) || 2 * me.piece + 1 > static_cast<std::uint64_t>(proxy().bounds()[2])) return pieces;
  settle();
  pieces.reserve(2);
  Color first = empty_piece(piece_rect(whole, 2));
  Color second = empty_piece(piece_rect(whole, 3));
  // The tile keeps the first half's particles and hands back the second's.
  second.tile_.accept(tile_.reshape(first.tile_.cells()));
  first.tile_ = std::move(tile_);
  pieces.emplace_back(index_of({me.tile, 2 * me.piece}), std::move(first));
  pieces.emplace_back(index_of({me.tile, 2 * me.piece + 1}), std::move(second));
  return pieces;
}

std::optional<collections::Index3D> Color::merge_into() const {
  const PieceId me = piece_of(index());
  if (me.piece <= 1) return std::nullopt;
  return index_of({me.tile, me.piece / 2});
}

std::optional<Color> Color::merge(const collections::Index3D& into, std::span<Color* const> siblings) {
  const PieceId parent = piece_of(into);
  if (siblings.size() != 2) return std::nullopt;
  Color* halves[2] = {nullptr, nullptr};
  for (Color* c : siblings) {
    const PieceId id = piece_of(c->index());
    if (id.tile != parent.tile || id.piece / 2 != parent.piece) return std::nullopt;
    halves[id.piece & 1U] = c;
  }
  if (halves[0] == nullptr || halves[1] == nullptr) return std::nullopt;
  for (Color* c : halves) c->settle();
  const CellRect a = halves[0]->tile_.cells();
  const CellRect b = halves[1]->tile_.cells();
  // Halves across x have different x0; halves across y the same.
  const CellRect whole = a.x0 != b.x0 ? CellRect{a.x0, a.y0, a.width + b.width, a.height}
                                      : CellRect{a.x0, a.y0, a.width, a.height + b.height};
  Color merged = halves[0]->empty_piece(whole);
  // The halves are destroyed after this: the first one's particles move, not copy.
  merged.tile_ = std::move(halves[0]->tile_);
  merged.tile_.reshape(whole);  // grows; nothing lies outside the whole
  merged.tile_.accept(halves[1]->tile_.particles());
  merged.advanced_ = std::max(halves[0]->advanced_, halves[1]->advanced_);
  return merged;
}

void Color::on_arrived() { directory_.local()->count_arrival(); }

double Color::take_exchange_seconds() {
  const double seconds = exchange_s_;
  exchange_s_ = 0.0;
  return seconds;
}

void Color::arrive(std::int64_t step, std::span<const std::byte> bytes) {
  const Clock::time_point start = Clock::now();
  take_arrivals(step, particles_of(bytes));
  exchange_s_ += seconds_since(start);
}

void Color::take_arrivals(std::int64_t step, std::span<const Particle> particles) {
  if (step <= advanced_) {
    // This color has moved its own particles of `step` already: the arrivals join the tile now
    // (one copy, no batch), to move at the next step.
    tile_.accept(particles);
  } else {
    ArrivalBatch batch;
    batch.step = step;
    batch.particles.assign(particles.begin(), particles.end());
    inbox_.push_back(std::move(batch));
  }
}

void Color::settle() { accept_before(std::numeric_limits<std::int64_t>::max()); }

std::vector<std::pair<TileCoord, std::vector<Particle>>> Color::reshape(const ColorCuts& cuts) {
  if (!inbox_.empty()) {
    throw std::logic_error("Color::reshape with arrivals waiting; call settle() first");
  }
  const std::vector<Particle> leaving = tile_.reshape(cuts.rect({index()[0], index()[1]}));
  // One bucket per color, by linear index, sized exactly before it is filled; only the non-empty
  // ones are returned.
  std::vector<std::uint32_t> destination(leaving.size());
  std::vector<std::size_t> sizes(static_cast<std::size_t>(cuts.tiles_x() * cuts.tiles_y()), 0);
  for (std::size_t k = 0; k < leaving.size(); ++k) {
    const Particle& p = leaving[k];
    const TileCoord to = cuts.tile_of_cell(static_cast<std::int64_t>(p.x), static_cast<std::int64_t>(p.y));
    destination[k] = static_cast<std::uint32_t>(to.i + to.j * cuts.tiles_x());
    ++sizes[destination[k]];
  }
  std::vector<std::vector<Particle>> buckets(sizes.size());
  for (std::size_t b = 0; b < sizes.size(); ++b) buckets[b].reserve(sizes[b]);
  for (std::size_t k = 0; k < leaving.size(); ++k) buckets[destination[k]].push_back(leaving[k]);
  std::vector<std::pair<TileCoord, std::vector<Particle>>> out;
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    if (buckets[b].empty()) continue;
    const auto linear = static_cast<std::int64_t>(b);
    out.emplace_back(TileCoord{linear % cuts.tiles_x(), linear / cuts.tiles_x()}, std::move(buckets[b]));
  }
  return out;
}

void Color::adopt(std::span<const std::byte> bytes) { tile_.accept(particles_of(bytes)); }

std::uint64_t Color::held() const {
  std::uint64_t count = tile_.size();
  for (const ArrivalBatch& b : inbox_) {
    count += b.particles.size();
  }
  return count;
}

void Color::accept_before(std::int64_t step) {
  // Batches of `step` or later came from neighbours that ran ahead; they stay for the next call.
  auto early = std::stable_partition(inbox_.begin(), inbox_.end(),
                                     [step](const ArrivalBatch& b) { return b.step < step; });
  for (auto it = inbox_.begin(); it != early; ++it) {
    tile_.accept(it->particles);
  }
  inbox_.erase(inbox_.begin(), early);
}

}  // namespace tessera::pic::driver
