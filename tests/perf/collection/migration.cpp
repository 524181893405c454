// Migration throughput: elements with `bytes` of state moved between ranks 0 and 1 by the
// collection (serialize, send, reconstruct, tell the home), against raw MPI messages of the same
// size and count.
//
// What is timed, on both sides alike: from a barrier until the receiving rank holds every element
// (every byte of MPI's messages has arrived), the slower rank's time; the sender's time ends when
// its last send has been started. The home updates and termination detection that follow a move
// are settled by a drain outside the timed region. One untimed move there and back, and one
// untimed MPI round, come first, so pools and the allocator hold their steady state.
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
  const auto elements = static_cast<std::size_t>(payloads.bounds()[0]);
  rt.collectives().barrier();
  const double start = wall_time();
  if (rt.rank() == from)
    for (std::uint64_t e : payloads.manager().local_elements()) payloads.manager().migrate(e, to);
  if (rt.rank() == to) rt.run_until([&] { return payloads.manager().local_count() == elements; });
  const double elapsed = wall_time() - start;
  rt.drain();
  return rt.collectives().allreduce(elapsed, op::max{});
}

// Seconds for rank 0 to send `count` messages of `bytes` to rank 1 (slowest rank). With
// `distinct`, each message has its own buffer on both sides, as each element has its own state:
// the same bytes the migrations move. Without, one buffer is sent `count` times, which measures
// MPI on data that stays in cache (1 MiB fits in this machine's L2), several times faster here.
double mpi_send_all(MPI_Comm comm, int rank, std::size_t bytes, int count, bool distinct) {
  std::vector<std::vector<std::uint8_t>> buffers(distinct ? static_cast<std::size_t>(count) : 1,
                                                 std::vector<std::uint8_t>(bytes, std::uint8_t{7}));
  const int n = static_cast<int>(bytes);
  MPI_Barrier(comm);
  const double start = wall_time();
  for (int i = 0; i < count; ++i) {
    auto& buffer = buffers[distinct ? static_cast<std::size_t>(i) : 0];
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
  mpi_send_all(mpi_comm, rt.rank(), bytes, elements, true);
  move_all(rt, payloads, 0, 1);
  move_all(rt, payloads, 1, 0);
  double best_move = 1e30;
  double best_mpi = 1e30;
  double best_mpi_one_buffer = 1e30;
  for (int t = 0; t < trials; ++t) {
    best_mpi = std::min(best_mpi, mpi_send_all(mpi_comm, rt.rank(), bytes, elements, true));
    best_mpi_one_buffer = std::min(best_mpi_one_buffer, mpi_send_all(mpi_comm, rt.rank(), bytes, elements, false));
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
  return Migration{bytes, elements / best_move, moved / best_move / 1e6, moved / best_mpi / 1e6,
                   moved / best_mpi_one_buffer / 1e6};
}

}  // namespace tessera::bench
