#pragma once
// Split and merge at a live balancing (lb/reshape.hpp): the LB manager's step between the
// phase record and the strategy.
#include <tessera/collections/phase.hpp>
#include <tessera/lb/load_model.hpp>
#include <tessera/lb/model.hpp>
#include <tessera/lb/reshape.hpp>

namespace tessera::lb {

/// Collective. With the thresholds from one allreduce of every rank's loads, splits this rank's
/// migratable elements above the split load (their collections' split_local) and merges groups
/// of its elements below the merge load that name the same target (merge_local), drains so that
/// every piece and merged element is live, and rewrites `input` to match: the pieces and merged
/// elements with their shares of the load instead of the elements they replace, and no edge of
/// a replaced element (the next phase measures the new ones); the replaced elements' load
/// histories leave `history`. Returns this rank's counts.
lb::ReshapeCounts reshape_live(Runtime& rt, collections::PhaseManager& phases, const lb::ReshapeOptions& options,
                               lb::StrategyInput& input, lb::LoadHistory& history);

}  // namespace tessera::lb
