#pragma once
/// Elastic shrink at a balancing: every migratable object of the leaving ranks
/// (StrategyInput::leaving) moves to a staying rank, then the strategy places everything.
///
/// The evacuation applies GreedyLB's rule (seed 000, Algorithm 1) to the leaving ranks alone:
/// they send their migratable objects' descriptors to rank 0, which gives each, largest first,
/// to the staying rank of least load; each leaving rank then sends every object, with the
/// edges of its input that name it, to its new rank. The strategy runs on those inputs, where a
/// leaving rank holds nothing it could give and, honouring `leaving`, is never a destination.
/// run_shrinking composes the two plans so that each object moves once, from the rank it is on
/// to the rank it ends on. Objects that are not migratable cannot leave: a leaving rank that
/// holds one keeps it in the plan (the caller decides whether such a rank may leave).
#include <span>
#include <vector>

#include "tessera/lb/comm.hpp"
#include "tessera/lb/model.hpp"
#include "tessera/lb/strategy.hpp"

namespace tessera::lb {

/// What the evacuation did on the hosted ranks.
struct Evacuation {
  std::vector<StrategyInput> hosted;  ///< the hosted ranks' inputs after the moves, in order
  Plan plan;  ///< moves of objects on hosted ranks (live: this rank's share; virtual: all)
  std::vector<std::vector<Migration>> arrived;  ///< per hosted rank, the moves that reached it
};

/// Collective over `backend`. Throws std::invalid_argument, on every rank alike, if every rank
/// leaves or an input's `staying` is not the number of ranks that do not leave.
Evacuation evacuate(comm::Backend& backend, std::span<const StrategyInput> hosted);

/// Collective: evacuate(), then `strategy` on what it leaves, and the plan that moves each object
/// once, from its rank now to the rank it ends on (live: this rank's share; virtual: all).
/// Throws as evacuate() does.
Plan run_shrinking(Strategy& strategy, comm::Backend& backend, std::span<const StrategyInput> hosted);

}  // namespace tessera::lb
