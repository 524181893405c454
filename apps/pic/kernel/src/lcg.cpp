#include "tessera/pic/lcg.hpp"

namespace tessera::pic {

void Lcg::jump(std::uint64_t steps) {
  // An LCG step is the affine map s -> a s + c; 2^i steps are the map (a_i, c_i) obtained by
  // composing (a_{i-1}, c_{i-1}) with itself, so the bits of `steps` select which powers to apply.
  std::uint64_t power_a = multiplier;
  std::uint64_t power_c = increment;
  std::uint64_t total_a = 1;
  std::uint64_t total_c = 0;
  while (steps != 0) {
    if ((steps & 1U) != 0) {
      total_a = power_a * total_a;
      total_c = power_a * total_c + power_c;
    }
    power_c = power_a * power_c + power_c;
    power_a = power_a * power_a;
    steps >>= 1U;
  }
  state_ = total_a * state_ + total_c;
}

}  // namespace tessera::pic
