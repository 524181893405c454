#include "tessera/pic/driver/neighbour_exchange.hpp"

#include <stdexcept>

namespace tessera::pic::driver {

namespace {

// Tags are the direction of travel; the communicator is the mode's own duplicate, so no other
// traffic shares them. MPI's non-overtaking rule keeps step s's message ahead of step s + 1's.
int tag_of(Direction d) { return static_cast<int>(index_of(d)); }

}  // namespace

NeighbourExchange::NeighbourExchange(MPI_Comm comm, std::array<int, kDirections> neighbours)
    : comm_(comm), neighbours_(neighbours) {}

const std::vector<Particle>& NeighbourExchange::exchange(const Departures& out) {
  std::array<MPI_Request, kDirections> sends{};
  for (Direction d : kAllDirections) {
    const std::vector<Particle>& bucket = out.bucket(d);
    MPI_Isend(bucket.data(), static_cast<int>(bucket.size() * sizeof(Particle)), MPI_BYTE,
              neighbours_[index_of(d)], tag_of(d), comm_, &sends[index_of(d)]);
  }
  arrivals_.clear();
  // What travels in direction d comes from the neighbour on the opposite side.
  for (Direction d : kAllDirections) {
    MPI_Status status;
    const int source = neighbours_[index_of(opposite(d))];
    MPI_Probe(source, tag_of(d), comm_, &status);
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    if (bytes % static_cast<int>(sizeof(Particle)) != 0) {
      throw std::logic_error("a particle message is not a whole number of particles");
    }
    const std::size_t first = arrivals_.size();
    arrivals_.resize(first + static_cast<std::size_t>(bytes) / sizeof(Particle));
    MPI_Recv(arrivals_.data() + first, bytes, MPI_BYTE, source, tag_of(d), comm_, MPI_STATUS_IGNORE);
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  return arrivals_;
}

}  // namespace tessera::pic::driver
