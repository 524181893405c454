#pragma once
// The particle sets the octree partitioner (seed 002, section 35.4.2) is run on: N points in
// 3-D, either uniform in the unit cube or clustered as a Plummer sphere (the density profile
// of a star cluster: rho(r) ~ (1 + r^2)^(-5/2) for scale radius 1), reproducibly from a seed.
//
// Each particle is drawn from its own stream (splitmix64 seeded with the seed and its index),
// so a set is the same whatever order or thread generates it. Plummer radii come from the
// inverse of the enclosed-mass fraction m(r) = r^3 / (1 + r^2)^(3/2), with m drawn from
// (0, 0.999]: the outermost 0.1 % of the mass (radii beyond 38.7) is left out so that a few
// far particles do not stretch the root cube. Directions are uniform on the sphere.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tessera::octree {

struct Particle {
  float x = 0;
  float y = 0;
  float z = 0;
  std::uint32_t id = 0;  // its index in the generated set
};

enum class Distribution { uniform, plummer };

// "uniform" or "plummer"; nothing for anything else.
std::optional<Distribution> parse_distribution(std::string_view name);
const char* to_string(Distribution distribution);

inline constexpr std::int64_t kMaxParticles = (std::int64_t{1} << 31) - 1;

// Throws tessera::Error unless n is in [1, kMaxParticles].
void check_particle_count(std::int64_t n);

// n particles with ids 0 .. n - 1. Throws tessera::Error as check_particle_count.
std::vector<Particle> make_particles(std::int64_t n, Distribution distribution, std::uint64_t seed);

}  // namespace tessera::octree
