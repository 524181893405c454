// Migration throughput: elements with `bytes` of state moved between ranks 0 and 1 by the
// collection (serialize, send, reconstruct, tell the home), against raw MPI messages of the same
// size and count.
#include "bench.hpp"

#include <tessera/collections.hpp>

#include <algorithm>
#include <vector>

namespace tessera::bench {

namespace {

using collections::Index1D;

// An element that is nothing but its state: a block of bytes (cereal copies arithmetic vectors
// as one binary blob, so this is the cheapest non-trivial serialize there is).
struct Payload : collections::Element<Payload, 1> {
  Payload() = default;
  explicit Payload(std::size_t bytes) : state(bytes, std::uint8_t{7}) {}
  std::vector<std::uint8_t> state;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(state);
  }
};

// Seconds to move every element from rank `from` to rank `to` (slowest rank; every rank calls).
double move_all(Runtime& rt, collections::CollectionProxy<Payload>& payloads, int from, int to) {
  rt.collectives().barrier();
  const double start = wall_time();
  if (rt.rank() == from)
    for (std::uint64_t e : payloads.manager().local_elements()) payloads.manager().migrate(e, to);
  rt.drain();
  return rt.collectives().allreduce(wall_time() - start, op::max{});
}

// Seconds for rank 0 to send `count` messages of `bytes` to rank 1 (slowest rank).
double mpi_send_all(MPI_Comm comm, int rank, std::size_t bytes, int count) {
  std::vector<std::uint8_t> buffer(bytes, std::uint8_t{7});
  const int n = static_cast<int>(bytes);
  MPI_Barrier(comm);
  const double start = wall_time();
  for (int i = 0; i < count; ++i) {
    if (rank == 0) MPI_Send(buffer.data(), n, MPI_BYTE, 1, 0, comm);
    else if (rank == 1) MPI_Recv(buffer.data(), n, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
  }
  double elapsed = wall_time() - start;
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
  return elapsed;
}

}  // namespace

Migration measure_migration(Runtime& rt, MPI_Comm mpi_comm, std::size_t bytes, int elements, int trials) {
  // Every element starts on rank 0, whatever the number of ranks.
  auto payloads = collections::make_mapped_collection<Payload>(
      rt, Index1D{elements}, [](const Index1D&, const Index1D&, int) { return 0; }, bytes);
  double best_move = 1e30;
  double best_mpi = 1e30;
  for (int t = 0; t < trials; ++t) {
    best_mpi = std::min(best_mpi, mpi_send_all(mpi_comm, rt.rank(), bytes, elements));
    best_move = std::min(best_move, move_all(rt, payloads, 0, 1));
    best_move = std::min(best_move, move_all(rt, payloads, 1, 0));
  }
  // Every element is back on rank 0 with its state intact, or the figures mean nothing.
  std::size_t intact = 0;
  payloads.manager().for_each_local([&](Payload& p) {
    intact += p.state.size() == bytes && std::all_of(p.state.begin(), p.state.end(), [](std::uint8_t b) { return b == 7; });
  });
  const auto total = rt.collectives().allreduce(static_cast<std::uint64_t>(intact), op::sum{});
  if (total != static_cast<std::uint64_t>(elements))
    fatal("migration benchmark: {} of {} elements of {} bytes came back intact", total, elements, bytes);
  payloads.destroy();
  const double moved = static_cast<double>(bytes) * elements;
  return Migration{bytes, elements / best_move, moved / best_move / 1e6, moved / best_mpi / 1e6};
}

}  // namespace tessera::bench
