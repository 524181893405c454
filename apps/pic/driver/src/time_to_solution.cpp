#include "tessera/pic/driver/time_to_solution.hpp"

#include <array>
#include <ctime>
#include <vector>

namespace tessera::pic::driver {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

TimeToSolution reduce_time_to_solution(MPI_Comm comm, double init_s, double total_s, double total_cpu_s,
                                       const Breakdown& mine) {
  static_assert(sizeof(Breakdown) == 9 * sizeof(double));
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  std::vector<Breakdown> all(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, sizeof(Breakdown), MPI_BYTE, all.data(), sizeof(Breakdown), MPI_BYTE, comm);
  std::array<double, 3> longest{init_s, total_s, total_cpu_s};
  MPI_Allreduce(MPI_IN_PLACE, longest.data(), 3, MPI_DOUBLE, MPI_MAX, comm);

  TimeToSolution result;
  result.init_s = longest[0];
  result.total_s = longest[1];
  result.total_cpu_s = longest[2];
  for (int r = 0; r < ranks; ++r) {
    if (all[static_cast<std::size_t>(r)].update_s > all[static_cast<std::size_t>(result.breakdown_rank)].update_s) {
      result.breakdown_rank = r;
    }
  }
  result.breakdown = all[static_cast<std::size_t>(result.breakdown_rank)];
  return result;
}

}  // namespace tessera::pic::driver
