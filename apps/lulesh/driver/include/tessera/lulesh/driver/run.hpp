#pragma once
/// A tessera-lulesh run: the domains as a collection of colors (color.hpp) on a tessera::Context,
/// one phase per cycle, and the verification as LULESH prints it.
///
/// Per cycle: an allreduce over the colors of (dt bound, fault), the one reduction the original
/// makes (its MPI_Allreduce of dt); rank 0 broadcasts `cycle(bound)`; the colors run the cycle by
/// element messages; `phase_end()` closes the phase (and balances when the --tessera_lb_ flags
/// say so). The final verification is SPMD on the application's communicator, as a ported code
/// keeps it: the rank holding domain 0 contributes its origin energy and symmetry figures to an
/// MPI_Allreduce, as the original's rank 0 prints its own domain's.
#include "tessera/lulesh/domain.hpp"
#include "tessera/lulesh/driver/options.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>

#include <tessera/runtime/error.hpp>

namespace tessera {
class Context;
}

namespace tessera::lulesh {

/// What a run gives, identical on every rank.
struct Result {
  std::int64_t cycles = 0;
  Real origin_energy = 0;          ///< e(0) of domain 0
  Symmetry symmetry;               ///< of domain 0's plane 0
  Real total_energy = 0;           ///< sum over domains in domain order (a further check)
  double elapsed_s = 0;            ///< first cycle to the verification's end, slowest rank (wall)
  double init_s = 0;               ///< colors built and the mass summed, before elapsed_s
  std::int64_t balancings = 0;     ///< phases that balanced
  std::int64_t migrations = 0;     ///< colors moved, over every balancing
  double balancing_s = 0;          ///< strategy and migration, slowest rank, inside elapsed_s
  double mean_imbalance = 0;       ///< mean over cycles of max/avg - 1 of the ranks' color loads
  double imbalance_s = 0;          ///< sum over cycles of the busiest rank's color load minus the
                                   ///< average rank's (s): what perfect spreading of each cycle's
                                   ///< work would save, so elapsed_s - imbalance_s is the balanced bound
  std::int64_t resumed_after = 0;  ///< the cycles a restart found done (0: none)
  std::string restarted_from;      ///< the checkpoint directory (empty: none)
  std::string balancer;            ///< --tessera_lb_name, or "none"
};

/// Runs `options` on `ctx` with `comm` the application's communicator (the one `ctx` duplicated).
/// Throws RunError as above.
Result run(const Options& options, Context& ctx, MPI_Comm comm);

}  // namespace tessera::lulesh
