#pragma once
// The random streams of TemperedLB: one independent generator per (seed, trial, iteration, stage,
// rank, round), so no rank's choices depend on another rank's or on how ranks are spread over
// processes.
//
// std::mt19937_64's output sequence is fixed by the C++ standard; the conversions to an index or a
// real below are written out (the standard distributions are not specified bit for bit), so a
// stream is the same on every platform and standard library.

#include <cstdint>
#include <initializer_list>
#include <random>

namespace tessera::lb::tempered {

// SplitMix64's finaliser (Steele, Lea, Flood, OOPSLA'14): decorrelates nearby seeds.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Random {
 public:
  // The stream named by `coordinates`, e.g. {seed, trial, iteration, stage, rank, round}.
  explicit Random(std::initializer_list<std::uint64_t> coordinates) : engine_(combine(coordinates)) {}

  // 64 random bits.
  std::uint64_t bits() { return engine_(); }

  // Uniform in [0, 1), 53 random bits.
  double real() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // Uniform in [0, n); n >= 1. Rejection keeps it exactly uniform.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x = engine_();
    while (x >= limit) x = engine_();
    return x % n;
  }

 private:
  static std::uint64_t combine(std::initializer_list<std::uint64_t> coordinates) {
    std::uint64_t h = 0x6a09e667f3bcc908ULL;
    for (std::uint64_t c : coordinates) h = mix64(h ^ mix64(c));
    return h;
  }

  std::mt19937_64 engine_;
};

}  // namespace tessera::lb::tempered
