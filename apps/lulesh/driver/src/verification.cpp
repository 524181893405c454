// The verification figures, gathered with plain MPI on the application's communicator.
#include "tessera/lulesh/driver/verification.hpp"

#include <array>
#include <vector>

namespace tessera::lulesh {

Verification verify(const collections::CollectionProxy<Color>& colors, const Problem& problem, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const Color* origin = colors.local(collections::Index3D{0, 0, 0});
  int holder = origin != nullptr ? rank : -1;
  MPI_Allreduce(MPI_IN_PLACE, &holder, 1, MPI_INT, MPI_MAX, comm);

  std::array<double, 5> figures{};
  if (origin != nullptr) {
    const Domain& d = origin->domain();
    const Symmetry s = d.symmetry();
    figures = {static_cast<double>(d.cycle()), d.origin_energy(), s.max_abs_diff, s.total_abs_diff, s.max_rel_diff};
  }
  MPI_Bcast(figures.data(), static_cast<int>(figures.size()), MPI_DOUBLE, holder, comm);

  // Each domain's slot is written by the one rank that holds it; the others add +0.0 (exact).
  std::vector<double> totals(static_cast<std::size_t>(problem.domains()), 0.0);
  colors.manager().for_each_local(
      [&totals](const Color& c) { totals[c.linear_id()] = c.domain().total_energy(); });
  MPI_Allreduce(MPI_IN_PLACE, totals.data(), static_cast<int>(totals.size()), MPI_DOUBLE, MPI_SUM, comm);

  Verification v;
  v.cycles = static_cast<std::int64_t>(figures[0]);
  v.origin_energy = figures[1];
  v.symmetry = {figures[2], figures[3], figures[4]};
  for (double t : totals) v.total_energy += t;
  return v;
}

}  // namespace tessera::lulesh
