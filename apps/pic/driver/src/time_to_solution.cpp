#include "tessera/pic/driver/time_to_solution.hpp"

#include <array>
#include <vector>

namespace tessera::pic::driver {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TimeToSolution reduce_time_to_solution(MPI_Comm comm, double init_s, double total_s, const Breakdown& mine) {
  static_assert(sizeof(Breakdown) == 7 * sizeof(double));
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  std::vector<Breakdown> all(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, sizeof(Breakdown), MPI_BYTE, all.data(), sizeof(Breakdown), MPI_BYTE, comm);
  std::array<double, 2> longest{init_s, total_s};
  MPI_Allreduce(MPI_IN_PLACE, longest.data(), 2, MPI_DOUBLE, MPI_MAX, comm);

  TimeToSolution result;
  result.init_s = longest[0];
  result.total_s = longest[1];
  for (int r = 0; r < ranks; ++r) {
    if (all[static_cast<std::size_t>(r)].update_s > all[static_cast<std::size_t>(result.breakdown_rank)].update_s) {
      result.breakdown_rank = r;
    }
  }
  result.breakdown = all[static_cast<std::size_t>(result.breakdown_rank)];
  return result;
}

}  // namespace tessera::pic::driver
