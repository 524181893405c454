// Aligning the ranks' trace clocks with rank 0's (see align_clock in trace.hpp).
#include <tessera/runtime/trace.hpp>

#include <chrono>
#include <limits>

namespace tessera {

std::int64_t trace_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {

constexpr int kTag = 0x7ace;

// Rank `peer` of `comm` measures its offset from rank 0 of `comm`; both call this.
ClockOffset ping_pong(MPI_Comm comm, int me, int peer, int rounds) {
  ClockOffset best;
  best.round_trip_ns = std::numeric_limits<double>::infinity();
  for (int i = 0; i < rounds; ++i) {
    if (me == 0) {
      char go = 0;
      MPI_Recv(&go, 1, MPI_CHAR, peer, kTag, comm, MPI_STATUS_IGNORE);
      const std::int64_t now = trace_clock_ns();
      MPI_Send(&now, 1, MPI_INT64_T, peer, kTag, comm);
    } else {
      char go = 0;
      const std::int64_t sent = trace_clock_ns();
      MPI_Send(&go, 1, MPI_CHAR, 0, kTag, comm);
      std::int64_t remote = 0;
      MPI_Recv(&remote, 1, MPI_INT64_T, 0, kTag, comm, MPI_STATUS_IGNORE);
      const std::int64_t received = trace_clock_ns();
      const double round_trip = static_cast<double>(received - sent);
      if (round_trip < best.round_trip_ns) {
        best.round_trip_ns = round_trip;
        // Rank 0 read its clock, at best guess, halfway through the round trip.
        best.offset_ns = static_cast<double>(remote) - (static_cast<double>(sent) + round_trip / 2);
      }
    }
  }
  if (me == 0) return {};
  return best;
}

// Every rank of `comm` but 0 measures against rank 0, one after another (a pair at a time, so
// no measurement shares rank 0 with another).
ClockOffset measure_all(MPI_Comm comm, int rounds) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ClockOffset mine;
  for (int peer = 1; peer < size; ++peer) {
    if (rank == 0) ping_pong(comm, 0, peer, rounds);
    else if (rank == peer) mine = ping_pong(comm, rank, peer, rounds);
  }
  return mine;
}

}  // namespace

ClockOffset align_clock(MPI_Comm comm, bool node_shares_clock, int rounds) {
  if (!node_shares_clock) return measure_all(comm, rounds);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  // The first rank of each node measures; rank 0 is the first of its node (keys are ranks).
  MPI_Comm leaders = MPI_COMM_NULL;
  MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  ClockOffset offset;
  if (leaders != MPI_COMM_NULL) {
    offset = measure_all(leaders, rounds);
    MPI_Comm_free(&leaders);
  }
  double values[2] = {offset.offset_ns, offset.round_trip_ns};
  MPI_Bcast(values, 2, MPI_DOUBLE, 0, node);
  MPI_Comm_free(&node);
  return ClockOffset{values[0], values[1]};
}

}  // namespace tessera
