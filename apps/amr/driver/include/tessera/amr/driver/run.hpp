#pragma once
/// tessera-amr's run: blocks as the elements of a dynamic collection, inserted when their parent
/// is refined or their children coarsened and destroyed when they are, balanced by the LB
/// manager between steps.
///
/// Each step every block runs `advance` (its diffusion passes), and the phase ends (the balancer
/// runs when the flags or a request say so). Every --refine_every steps a refinement stage
/// follows: every rank plans it from its copy of the leaf set (mesh.hpp); the rank holding a
/// block to refine inserts its four children on itself and destroys it; the four children of a
/// block to coarsen send their averaged quarters to the first of them, which inserts the parent
/// on its rank and destroys itself, as the others do. Each variable's total is reduced before
/// and after every stage and at the end; the run is `conserved` when none of them moved from
/// the initial totals by more than 10^-9 of their size.
#include "tessera/amr/cells.hpp"
#include "tessera/amr/driver/options.hpp"

#include <array>
#include <cstdint>

namespace tessera {
class Context;
}

namespace tessera::amr {

struct Result {
  int ranks = 0;
  std::int64_t stages = 0;     ///< refinement stages run
  std::int64_t refined = 0;    ///< blocks divided
  std::int64_t coarsened = 0;  ///< parents rebuilt from their children
  std::int64_t blocks = 0;     ///< leaves at the end
  std::int64_t max_blocks = 0; ///< the most leaves at once
  std::int64_t inserted = 0;   ///< elements inserted (roots included)
  std::int64_t destroyed = 0;
  std::int64_t dead_letters = 0;
  std::int64_t balancings = 0;
  std::int64_t migrations = 0;
  std::array<double, kVariables> initial{};  ///< each variable's total at the start
  std::array<double, kVariables> total{};    ///< ... at the end
  double drift = 0.0;          ///< the largest relative change of a total seen
  bool conserved = false;
  std::uint64_t fingerprint = 0;  ///< every leaf's values, XOR-combined: placement free
  double seconds = 0.0;           ///< wall time of the steps, slowest rank
};

/// Collective: runs the mesh of `options` to its last step.
Result run_amr(const Options& options, Context& ctx);

}  // namespace tessera::amr
