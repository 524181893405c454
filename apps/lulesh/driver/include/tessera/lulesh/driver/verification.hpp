#pragma once
/// The end of a tessera-lulesh run, SPMD on the application's communicator as a ported code keeps
/// it: the figures LULESH prints (domain 0's cycle count, origin energy and plane-0 symmetry), and
/// the energy summed over every domain in domain order, a check the original does not make.
#include "tessera/lulesh/driver/color.hpp"

#include <mpi.h>

#include <tessera/collections.hpp>

namespace tessera::lulesh {

struct Verification {
  std::int64_t cycles = 0;
  Real origin_energy = 0;
  Symmetry symmetry;
  Real total_energy = 0;
};

/// Collective over `comm` (every rank of the colors' runtime, in the same order): the rank that
/// holds domain 0 broadcasts its figures; every domain's total energy is gathered by an
/// MPI_Allreduce into its own slot and summed in domain order, so the total's bits do not depend
/// on where the domains are.
Verification verify(const collections::CollectionProxy<Color>& colors, const Problem& problem, MPI_Comm comm);

}  // namespace tessera::lulesh
