#pragma once
/// The 64-bit linear congruential generator of the ParRes Kernels PIC benchmark.
///
/// s_{i+1} = a s_i + c (mod 2^64) with a = 6364136223846793005, c = 1442695040888963407 and
/// s_0 = 27182818285 (Georganas, Van der Wijngaart, Mattson, IPDPS 2016). Cell (x, y) of an L x L
/// grid draws its particle count from the state at index 2 (y + x L), so any tile can start its
/// cells' stream without generating the cells before it: `jump` advances by n steps in O(log n)
/// multiplications (F. B. Brown, "Random number generation with arbitrary strides", 1994).
#include <cstdint>

namespace tessera::pic {

class Lcg {
 public:
  static constexpr std::uint64_t multiplier = 6364136223846793005ULL;
  static constexpr std::uint64_t increment = 1442695040888963407ULL;
  static constexpr std::uint64_t initial_seed = 27182818285ULL;

  /// The generator at index 0 (state = the benchmark's seed).
  Lcg() = default;

  /// The generator after `index` steps from the seed.
  static Lcg at(std::uint64_t index) {
    Lcg lcg;
    lcg.jump(index);
    return lcg;
  }

  /// Advances one step and returns the new state.
  std::uint64_t next() {
    state_ = multiplier * state_ + increment;
    return state_;
  }

  /// Advances `steps` steps at once, O(log steps).
  void jump(std::uint64_t steps);

  std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_ = initial_seed;
};

}  // namespace tessera::pic
