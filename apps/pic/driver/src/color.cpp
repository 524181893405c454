#include "tessera/pic/driver/color.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

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

}  // namespace

Color::Color(const collections::Index2D& idx, std::int64_t grid_size, std::int64_t tiles_x, std::int64_t tiles_y)
    : tile_(TileGrid(grid_size, tiles_x, tiles_y).rect({idx[0], idx[1]}), grid_size),
      tiles_x_(tiles_x),
      tiles_y_(tiles_y) {}

void Color::advance(std::int64_t step) {
  const Clock::time_point start = Clock::now();
  accept_before(step);
  last_moved_ = tile_.size();
  const Clock::time_point update_start = Clock::now();
  last_update_ = tile_.move();
  advanced_ = step;
  const Clock::time_point update_end = Clock::now();
  exchange_s_ += std::chrono::duration<double>(update_start - start).count();
  Departures out = tile_.take_departures();
  const TileGrid grid(tile_.grid_size(), tiles_x_, tiles_y_);
  const TileCoord me{index()[0], index()[1]};
  for (Direction d : kAllDirections) {
    const std::vector<Particle>& bucket = out.bucket(d);
    if (bucket.empty()) {
      continue;
    }
    const TileCoord to = grid.neighbour(me, d);
    // A neighbour on this rank takes them at once, as Charm++'s ckLocal() allows: no message to
    // pack and deliver, one copy of the particles fewer.
    if (Color* local = proxy().local({to.i, to.j})) {
      local->take_arrivals(step, bucket);
    } else {
      proxy()[{to.i, to.j}].send<&Color::arrive>(step, std::as_bytes(std::span(bucket)));
    }
  }
  exchange_s_ += seconds_since(update_end);
}

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
