#pragma once
/// The SPMD mode's particle exchange: each rank sends the particles that left its tile to the
/// rank owning the neighbour tile in that direction, and receives from all 8 neighbours.
#include <mpi.h>

#include <array>
#include <vector>

#include "tessera/pic/geometry.hpp"
#include "tessera/pic/particle.hpp"
#include "tessera/pic/tile.hpp"

namespace tessera::pic::driver {

class NeighbourExchange {
 public:
  /// `neighbours[index_of(d)]` is the rank of the neighbour tile in direction d. Ranks may repeat
  /// (two tiles across, or one) and may be this rank: every direction is a message with its own tag.
  NeighbourExchange(MPI_Comm comm, std::array<int, kDirections> neighbours);

  /// Sends `out.bucket(d)` toward direction d for every d and returns the particles that arrived.
  /// Collective among neighbours; every rank must call it once per step.
  const std::vector<Particle>& exchange(const Departures& out);

 private:
  MPI_Comm comm_;
  std::array<int, kDirections> neighbours_;
  std::vector<Particle> arrivals_;
};

}  // namespace tessera::pic::driver
