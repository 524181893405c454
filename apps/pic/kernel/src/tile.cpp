#include "tessera/pic/tile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "tessera/pic/lcg.hpp"
#include "tessera/pic/mover.hpp"

namespace tessera::pic {

namespace {

std::int64_t wrap(std::int64_t value, std::int64_t period) { return ((value % period) + period) % period; }

// Offset (-1, 0 or 1) of `cell` from the block [start, start + extent) of a periodic axis. The
// caller guarantees the cell is at most one neighbouring block away, so the nearer edge decides;
// with only two blocks both sides are the same neighbour and either answer routes correctly.
// Both cell and start lie in [0, period), so one conditional add wraps the difference: this runs
// for every departing particle, and the two integer divisions of a general wrap cost about as
// much as moving a particle.
int side_of(std::int64_t cell, std::int64_t start, std::int64_t extent, std::int64_t period) {
  std::int64_t ahead = cell - start;
  if (ahead < 0) {
    ahead += period;
  }
  if (ahead < extent) {
    return 0;
  }
  const std::int64_t past_end = ahead - extent;
  const std::int64_t before_start = period - ahead;
  return past_end < before_start ? 1 : -1;
}

}  // namespace

std::size_t Departures::total() const {
  std::size_t n = 0;
  for (const auto& b : buckets) {
    n += b.size();
  }
  return n;
}

Tile::Tile(CellRect cells, std::int64_t grid_size) : cells_(cells), grid_size_(grid_size) {}

std::vector<std::uint64_t> Tile::draw(const Problem& problem) {
  const auto n = static_cast<double>(problem.particles);
  std::vector<std::uint64_t> columns(static_cast<std::size_t>(cells_.width), 0);
  drawn_.assign(static_cast<std::size_t>(cells_.cells()), 0);
  for (std::int64_t c = 0; c < cells_.width; ++c) {
    const std::int64_t x = cells_.x0 + c;
    // Each cell consumes two LCG states, so one jump per column reaches its first cell and the
    // rest of the column follows in sequence.
    Lcg lcg = Lcg::at(2 * static_cast<std::uint64_t>(cells_.y0 + x * grid_size_));
    for (std::int64_t r = 0; r < cells_.height; ++r) {
      const std::int64_t y = cells_.y0 + r;
      if (!problem.distribution.may_populate(x, y)) {
        lcg.jump(2);
        continue;
      }
      const std::uint64_t count = draw_count(problem.distribution.mean(x, y, grid_size_, n), lcg);
      drawn_[static_cast<std::size_t>(c * cells_.height + r)] = static_cast<std::uint32_t>(count);
      columns[static_cast<std::size_t>(c)] += count;
    }
  }
  return columns;
}

void Tile::place(const Problem& problem, std::span<const std::uint64_t> first_ids) {
  if (drawn_.size() != static_cast<std::size_t>(cells_.cells())) {
    throw std::logic_error("Tile::place called before Tile::draw");
  }
  if (first_ids.size() != static_cast<std::size_t>(cells_.width)) {
    throw std::logic_error(fmt::format("Tile::place needs {} first ids (one per column), got {}",
                                       cells_.width, first_ids.size()));
  }
  const double charge = static_cast<double>(problem.x_travel()) * base_charge();
  const double vy = static_cast<double>(problem.m) / kTimeStep;
  std::size_t total = 0;
  for (std::uint32_t count : drawn_) {
    total += count;
  }
  particles_.reserve(particles_.size() + total);
  for (std::int64_t c = 0; c < cells_.width; ++c) {
    const std::int64_t x = cells_.x0 + c;
    // The charge's sign follows the column parity so that every particle is pushed toward +x.
    const double q = column_charge(x) * charge;
    std::uint64_t id = first_ids[static_cast<std::size_t>(c)];
    for (std::int64_t r = 0; r < cells_.height; ++r) {
      const std::uint32_t count = drawn_[static_cast<std::size_t>(c * cells_.height + r)];
      const double px = static_cast<double>(x) + 0.5;
      const double py = static_cast<double>(cells_.y0 + r) + 0.5;
      for (std::uint32_t i = 0; i < count; ++i) {
        particles_.push_back(Particle{px, py, 0.0, vy, q, px, py, id++});
      }
    }
  }
  drawn_.clear();
  drawn_.shrink_to_fit();
}

UpdateTime Tile::move() {
  const Stopwatch watch;
  const auto side = static_cast<double>(grid_size_);
  std::size_t live = particles_.size();
  std::size_t i = 0;
  // A particle that leaves is replaced by the last not-yet-moved one, so every particle moves
  // exactly once and the array stays compact with no second pass.
  while (i < live) {
    Particle& p = particles_[i];
    move_particle(p, side);
    const auto x = static_cast<std::int64_t>(p.x);
    const auto y = static_cast<std::int64_t>(p.y);
    if (cells_.contains(x, y)) {
      ++i;
      continue;
    }
    departures_.bucket(direction_to(x, y)).push_back(p);
    particles_[i] = particles_[live - 1];
    --live;
  }
  particles_.resize(live);
  return watch.elapsed();
}

Departures Tile::take_departures() {
  Departures out;
  std::swap(out, departures_);
  // The next step sends about as many each way: room for them up front saves the buckets'
  // doublings (a dozen reallocations per bucket per step at a color's size).
  for (std::size_t d = 0; d < out.buckets.size(); ++d) departures_.buckets[d].reserve(out.buckets[d].size());
  return out;
}

void Tile::accept(std::span<const Particle> arrivals) {
  for (const Particle& p : arrivals) {
    if (!cells_.contains(static_cast<std::int64_t>(p.x), static_cast<std::int64_t>(p.y))) {
      throw std::logic_error(fmt::format(
          "particle {} at ({}, {}) was delivered to the tile of cells [{}, {}) x [{}, {})", p.id,
          p.x, p.y, cells_.x0, cells_.x0 + cells_.width, cells_.y0, cells_.y0 + cells_.height));
    }
  }
  particles_.insert(particles_.end(), arrivals.begin(), arrivals.end());
}

std::vector<Particle> Tile::reshape(CellRect cells) {
  if (departures_.total() != 0) {
    throw std::logic_error("Tile::reshape called with departures not taken");
  }
  cells_ = cells;
  // The particles inside close up in place, in their order; the others go. Counting first sizes
  // `leaving` exactly: a re-cut can move half a rank's particles, and growing by doubling would
  // copy them again and fault in pages twice.
  const auto inside = [&cells](const Particle& p) {
    return cells.contains(static_cast<std::int64_t>(p.x), static_cast<std::int64_t>(p.y));
  };
  std::vector<Particle> leaving;
  leaving.reserve(static_cast<std::size_t>(
      std::count_if(particles_.begin(), particles_.end(), [&inside](const Particle& p) { return !inside(p); })));
  std::size_t kept = 0;
  for (const Particle& p : particles_) {
    if (inside(p)) {
      particles_[kept++] = p;
    } else {
      leaving.push_back(p);
    }
  }
  particles_.resize(kept);
  return leaving;
}

Verification Tile::verify(const Problem& problem, std::int64_t steps) const {
  const std::int64_t L = grid_size_;
  // Integer arithmetic modulo L keeps the expected cell exact for any number of steps.
  const std::int64_t shift_x = (steps % L) * (problem.x_travel() % L) % L;
  const std::int64_t shift_y = (steps % L) * wrap(problem.m, L) % L;
  Verification v;
  for (const Particle& p : particles_) {
    const std::int64_t cell_x = wrap(static_cast<std::int64_t>(std::floor(p.x0)) + shift_x, L);
    const std::int64_t cell_y = wrap(static_cast<std::int64_t>(std::floor(p.y0)) + shift_y, L);
    const double dx = std::fabs(p.x - (static_cast<double>(cell_x) + 0.5));
    const double dy = std::fabs(p.y - (static_cast<double>(cell_y) + 0.5));
    ++v.count;
    v.id_sum += p.id;
    if (!(dx <= kPositionTolerance) || !(dy <= kPositionTolerance)) {
      ++v.misplaced;
    }
  }
  return v;
}

Direction Tile::direction_to(std::int64_t x, std::int64_t y) const {
  return direction_of(side_of(x, cells_.x0, cells_.width, grid_size_),
                      side_of(y, cells_.y0, cells_.height, grid_size_));
}

}  // namespace tessera::pic
