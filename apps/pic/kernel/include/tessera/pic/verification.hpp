#pragma once
/// The benchmark's self-check, as a tally that merges across tiles and ranks.
///
/// After T steps every particle must sit within 1e-6 of x0 + T (2k+1), y0 + T m (modulo L), the
/// particle count must equal the count placed, and the ids must sum to N (N+1) / 2. Sums are taken
/// modulo 2^64 so the check is exact for any N.
#include <cstdint>

namespace tessera::pic {

inline constexpr double kPositionTolerance = 1e-6;  ///< cells

/// N (N+1) / 2 modulo 2^64: the sum of ids 1..N.
inline constexpr std::uint64_t id_checksum(std::uint64_t n) {
  return (n % 2 == 0) ? (n / 2) * (n + 1) : n * ((n + 1) / 2);
}

struct Verification {
  std::uint64_t count = 0;      ///< particles seen
  std::uint64_t id_sum = 0;     ///< sum of their ids, modulo 2^64
  std::uint64_t misplaced = 0;  ///< particles farther than kPositionTolerance from where they belong

  void merge(const Verification& other) {
    count += other.count;
    id_sum += other.id_sum;
    misplaced += other.misplaced;
  }

  /// True if the tally covers exactly the `placed` particles 1..placed, all where they belong.
  bool passed(std::uint64_t placed) const {
    return count == placed && misplaced == 0 && id_sum == id_checksum(placed);
  }
};

}  // namespace tessera::pic
