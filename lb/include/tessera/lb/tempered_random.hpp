#pragma once
// The random streams of TemperedLB: one independent generator per (seed, trial, iteration, stage,
// rank, round), so no rank's choices depend on another rank's or on how ranks are spread over
// processes.
//
// std::mt19937_64's output sequence is fixed by the C++ standard (LazyMt64 below produces it); the conversions to an index or a
// real below are written out (the standard distributions are not specified bit for bit), so a
// stream is the same on every platform and standard library.

#include <cstdint>
#include <initializer_list>
#include <algorithm>
#include <cstddef>

namespace tessera::lb::tempered {

// SplitMix64's finaliser (Steele, Lea, Flood, OOPSLA'14): decorrelates nearby seeds.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// std::mt19937_64's sequence, produced lazily: seeding fills the 312 state words and the first
// draw twists all of them, about a microsecond, while a gossip forward draws a handful of numbers
// from a stream of its own (about 10^5 streams per iteration at P = 16,384). Here state word i is
// seeded and twisted when output i (or a later word's twist) first needs it, in the same order and
// with the same operations as the standard engine, so the outputs are the same numbers.
class LazyMt64 {
 public:
  explicit LazyMt64(std::uint64_t seed) {
    x_[0] = seed;
    seeded_ = 1;
  }

  std::uint64_t operator()() {
    if (next_ == n) {
      // A new block: every word of the last one is twisted (twist_upto_ == n), start over.
      next_ = 0;
      twisted_ = 0;
    }
    while (twisted_ <= next_) twist_one();
    std::uint64_t z = x_[next_++];
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71d67fffeda60000ULL;
    z ^= (z << 37) & 0xfff7eee000000000ULL;
    return z ^ (z >> 43);
  }

 private:
  static constexpr std::size_t n = 312;
  static constexpr std::size_t m = 156;
  static constexpr std::uint64_t upper = ~std::uint64_t{0} << 31;
  static constexpr std::uint64_t lower = ~upper;

  // The seeding recurrence of [rand.eng.mers], up to word i.
  void seed_upto(std::size_t i) {
    for (; seeded_ <= i; ++seeded_)
      x_[seeded_] = 6364136223846793005ULL * (x_[seeded_ - 1] ^ (x_[seeded_ - 1] >> 62)) + seeded_;
  }

  // Word k of the next block: x[k] from x[k] and x[k+1] of the old block and x[k+m] (old for
  // k < n - m, already new otherwise), as in the standard engine's twist, which runs k upwards.
  void twist_one() {
    const std::size_t k = twisted_;
    const std::size_t k1 = k + 1 == n ? 0 : k + 1;
    const std::size_t km = (k + m) % n;
    seed_upto(std::max(k + 1 == n ? k : k1, km));
    const std::uint64_t y = (x_[k] & upper) | (x_[k1] & lower);
    x_[k] = x_[km] ^ (y >> 1) ^ ((y & 1) != 0 ? 0xb5026f5aa96619e9ULL : 0);
    ++twisted_;
  }

  std::uint64_t x_[n];
  std::size_t seeded_ = 0;   // words 0..seeded_-1 hold the seeding
  std::size_t twisted_ = 0;  // words 0..twisted_-1 hold the current block
  std::size_t next_ = n;     // the next output's word; n: the first draw starts a block
};

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

  LazyMt64 engine_;
};

}  // namespace tessera::lb::tempered
