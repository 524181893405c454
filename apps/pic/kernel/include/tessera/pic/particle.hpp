#pragma once
/// One PIC particle: 64 bytes, trivially copyable, so a tile's particles form one compact array
/// that the mover streams through and a driver can send as raw bytes.
#include <cstdint>
#include <type_traits>

namespace tessera::pic {

struct Particle {
  double x = 0.0;   ///< position in cells, 0 <= x < L
  double y = 0.0;   ///< position in cells, 0 <= y < L
  double vx = 0.0;  ///< velocity in cells per DT
  double vy = 0.0;  ///< velocity in cells per DT
  double q = 0.0;   ///< charge, +/-(2k+1) base_charge
  double x0 = 0.0;  ///< initial position, kept for verification
  double y0 = 0.0;
  std::uint64_t id = 0;  ///< 1..N in global cell order, the same for every decomposition

  template <class Archive>
  void serialize(Archive& archive) {
    archive(x, y, vx, vy, q, x0, y0, id);
  }
};

static_assert(std::is_trivially_copyable_v<Particle>);
static_assert(sizeof(Particle) == 64, "one particle per cache line");

}  // namespace tessera::pic
