#include "tessera/octree/particles.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::octree {
namespace {

// splitmix64 (Steele, Lea, Flood, "Fast Splittable Pseudorandom Number Generators", 2014).
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), from the top 53 bits.
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

constexpr double kPlummerMassCut = 0.999;

Particle plummer(SplitMix64& rng) {
  const double mass = kPlummerMassCut * (1.0 - rng.uniform());  // in (0, 0.999]
  const double radius = 1.0 / std::sqrt(std::pow(mass, -2.0 / 3.0) - 1.0);
  const double cos_theta = 2.0 * rng.uniform() - 1.0;
  const double sin_theta = std::sqrt(1.0 - cos_theta * cos_theta);
  const double phi = 2.0 * std::numbers::pi * rng.uniform();
  return Particle{static_cast<float>(radius * sin_theta * std::cos(phi)),
                  static_cast<float>(radius * sin_theta * std::sin(phi)), static_cast<float>(radius * cos_theta), 0};
}

}  // namespace

std::optional<Distribution> parse_distribution(std::string_view name) {
  if (name == "uniform") return Distribution::uniform;
  if (name == "plummer") return Distribution::plummer;
  return std::nullopt;
}

const char* to_string(Distribution distribution) {
  return distribution == Distribution::uniform ? "uniform" : "plummer";
}

void check_particle_count(std::int64_t n) {
  if (n < 1 || n > kMaxParticles) {
    throw Error(fmt::format("the number of particles is {}: expected an integer in [1, {}]", n,
                                            kMaxParticles));
  }
}

std::vector<Particle> make_particles(std::int64_t n, Distribution distribution, std::uint64_t seed) {
  check_particle_count(n);
  std::vector<Particle> particles(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    SplitMix64 rng{seed ^ (0xd1b54a32d192ed03ULL * static_cast<std::uint64_t>(i + 1))};
    Particle p;
    if (distribution == Distribution::uniform) {
      p = Particle{static_cast<float>(rng.uniform()), static_cast<float>(rng.uniform()),
                   static_cast<float>(rng.uniform()), 0};
    } else {
      p = plummer(rng);
    }
    p.id = static_cast<std::uint32_t>(i);
    particles[static_cast<std::size_t>(i)] = p;
  }
  return particles;
}

}  // namespace tessera::octree
