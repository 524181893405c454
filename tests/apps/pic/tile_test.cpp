#include <gtest/gtest.h>

#include <cereal/archives/binary.hpp>

#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "tessera/pic/mover.hpp"
#include "tessera/pic/tile.hpp"

namespace tessera::pic {
namespace {

// One particle with the charge and velocity Tile::place gives a particle of cell (x, y).
Particle particle_at(std::int64_t x, std::int64_t y, const Problem& p, std::uint64_t id) {
  const double px = static_cast<double>(x) + 0.5;
  const double py = static_cast<double>(y) + 0.5;
  const double q = column_charge(x) * static_cast<double>(p.x_travel()) * base_charge();
  return {px, py, 0.0, static_cast<double>(p.m), q, px, py, id};
}

Problem small_problem(std::int64_t k, std::int64_t m) {
  Problem p;
  p.grid_size = 16;
  p.k = k;
  p.m = m;
  p.distribution = Distribution::sinusoidal();
  return p;
}

TEST(PicMover, WrapIsExactlyFmod) {
  std::mt19937_64 rng(7);
  for (double period : {2.0, 24.0, 960.0, 4096.0, 100000.0}) {
    std::uniform_real_distribution<double> uniform(0.0, 3.0 * period);
    for (int i = 0; i < 20000; ++i) {
      const double t = uniform(rng);
      ASSERT_EQ(wrap_periodic(t, period), std::fmod(t, period)) << t << " mod " << period;
    }
    EXPECT_EQ(wrap_periodic(period, period), 0.0);
    EXPECT_EQ(wrap_periodic(5.0 * period + 0.25, period), 0.25);
  }
}

TEST(PicMover, ParticlesTravelTwoKPlusOneCellsInXAndMInY) {
  for (std::int64_t k : {0, 1, 3}) {
    for (std::int64_t m : {-2, 0, 1}) {
      const Problem p = small_problem(k, m);
      Particle a = particle_at(2, 5, p, 1);  // even column
      Particle b = particle_at(7, 5, p, 2);  // odd column
      for (int step = 1; step <= 5; ++step) {
        move_particle(a, 16.0);
        move_particle(b, 16.0);
        const double dx = static_cast<double>(step * (2 * k + 1));
        const double dy = static_cast<double>(step * m);
        EXPECT_NEAR(a.x, std::fmod(2.5 + dx, 16.0), 1e-9);
        EXPECT_NEAR(b.x, std::fmod(7.5 + dx, 16.0), 1e-9);
        EXPECT_NEAR(a.y, std::fmod(5.5 + dy + 16.0 * 5, 16.0), 1e-9);
        // The x-acceleration flips every step: v_x alternates 2 (2k+1), 0.
        EXPECT_NEAR(a.vx, step % 2 == 1 ? 2.0 * static_cast<double>(2 * k + 1) : 0.0, 1e-9);
      }
    }
  }
}

TEST(PicTile, DeparturesGoToTheNeighbourInTheirDirection) {
  const Problem p = small_problem(0, -1);
  Tile tile({4, 4, 4, 4}, 16);
  const std::vector<Particle> start = {
      particle_at(5, 5, p, 1),  // stays: (6, 4)
      particle_at(7, 6, p, 2),  // east: (8, 5)
      particle_at(7, 4, p, 3),  // south-east: (8, 3)
      particle_at(5, 4, p, 4),  // south: (6, 3)
  };
  tile.accept(start);
  tile.move();
  Departures out = tile.take_departures();
  EXPECT_EQ(tile.size(), 1U);
  EXPECT_EQ(tile.particles()[0].id, 1U);
  ASSERT_EQ(out.bucket(Direction::east).size(), 1U);
  EXPECT_EQ(out.bucket(Direction::east)[0].id, 2U);
  ASSERT_EQ(out.bucket(Direction::south_east).size(), 1U);
  EXPECT_EQ(out.bucket(Direction::south_east)[0].id, 3U);
  ASSERT_EQ(out.bucket(Direction::south).size(), 1U);
  EXPECT_EQ(out.bucket(Direction::south)[0].id, 4U);
  EXPECT_EQ(out.total(), 3U);
  EXPECT_EQ(tile.take_departures().total(), 0U);
}

TEST(PicTile, DeparturesAcrossThePeriodicEdge) {
  const Problem p = small_problem(1, 2);
  Tile tile({12, 12, 4, 4}, 16);
  tile.accept(std::vector<Particle>{particle_at(14, 15, p, 9)});  // to (1, 1): north-east, wrapped
  tile.move();
  Departures out = tile.take_departures();
  ASSERT_EQ(out.bucket(Direction::north_east).size(), 1U);
  EXPECT_NEAR(out.bucket(Direction::north_east)[0].x, 1.5, 1e-9);
  EXPECT_NEAR(out.bucket(Direction::north_east)[0].y, 1.5, 1e-9);
}

TEST(PicTile, AcceptRejectsAParticleOutsideTheTile) {
  const Problem p = small_problem(0, 1);
  Tile tile({0, 0, 4, 4}, 16);
  EXPECT_THROW(tile.accept(std::vector<Particle>{particle_at(4, 0, p, 1)}), std::logic_error);
  EXPECT_THROW(tile.place(p, std::vector<std::uint64_t>(4, 1)), std::logic_error);
}

TEST(PicTile, DrawPlacesConsecutiveIdsPerColumn) {
  Problem p = small_problem(0, 1);
  p.particles = 2560;  // 10 per cell on average
  Tile tile({3, 2, 2, 5}, 16);
  const std::vector<std::uint64_t> columns = tile.draw(p);
  ASSERT_EQ(columns.size(), 2U);
  tile.place(p, std::vector<std::uint64_t>{100, 1000});
  ASSERT_EQ(tile.size(), columns[0] + columns[1]);
  for (std::size_t i = 0; i < tile.size(); ++i) {
    const Particle& q = tile.particles()[i];
    const std::uint64_t first = q.x < 4.0 ? 100 : 1000;
    const std::size_t offset = q.x < 4.0 ? 0 : columns[0];
    EXPECT_EQ(q.id, first + (i - offset));
    EXPECT_EQ(q.vy, 1.0);
    EXPECT_EQ(q.x, q.x0);
  }
}

TEST(PicTile, SerializationRoundTripsAndKeepsMoving) {
  Problem p = small_problem(1, 1);
  p.particles = 1000;
  Tile tile({0, 0, 16, 16}, 16);
  const std::vector<std::uint64_t> columns = tile.draw(p);
  std::vector<std::uint64_t> first(columns.size());
  std::uint64_t next = 1;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    first[c] = next;
    next += columns[c];
  }
  tile.place(p, first);
  tile.move();

  std::stringstream buffer;
  {
    cereal::BinaryOutputArchive out(buffer);
    out(tile);
  }
  Tile copy;
  {
    cereal::BinaryInputArchive in(buffer);
    in(copy);
  }
  EXPECT_EQ(copy.cells().width, 16);
  EXPECT_EQ(copy.grid_size(), 16);
  ASSERT_EQ(copy.size(), tile.size());
  tile.move();
  copy.move();
  for (std::size_t i = 0; i < tile.size(); ++i) {
    EXPECT_EQ(copy.particles()[i].id, tile.particles()[i].id);
    EXPECT_EQ(copy.particles()[i].x, tile.particles()[i].x);
    EXPECT_EQ(copy.particles()[i].vy, tile.particles()[i].vy);
  }
  EXPECT_TRUE(copy.verify(p, 2).passed(next - 1));
}

}  // namespace
}  // namespace tessera::pic
