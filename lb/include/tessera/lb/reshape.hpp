#pragma once
/// Split and merge at a balancing: before a strategy places the objects, the heaviest are split
/// and co-located light ones merged, so that the strategy places pieces that fit where whole
/// objects could not (a color holding a dense clump of particles), and fewer tiny ones.
///
/// The thresholds are global (one allreduce of the loads at a live balancing):
///   split load S = split_above x (total load / ranks)               (--tessera_lb_split_above=F)
///   merge load M = merge_below x (migratable load / migratable objects)  (--tessera_lb_merge_below=F)
/// A migratable object heavier than S is split in halves, and each half again while heavier than
/// S, at most kMaxSplitDepth times (so into at most 2^kMaxSplitDepth pieces). A live element's
/// own split() may divide it otherwise: the runtime splits a piece again while its share of the
/// load is above S (collections/membership.hpp says how pieces are inserted).
/// Migratable objects lighter than M on one rank merge in pairs: on the virtual ranks by
/// ascending id (the first with the second, the third with the fourth, ...); live, among the
/// elements that name the same merge target (merge_into()), as the application decides.
/// Non-migratable objects (a rank's own load) are never split or merged.
#include <tessera/lb/model.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace tessera::lb {

inline constexpr int kMaxSplitDepth = 8;

struct ReshapeOptions {
  double split_above = 0.0;  ///< F of the split load; 0: never split
  double merge_below = 0.0;  ///< F of the merge load; 0: never merge
  bool enabled() const { return split_above > 0.0 || merge_below > 0.0; }
};

struct ReshapeThresholds {
  double split_load = std::numeric_limits<double>::infinity();  ///< seconds: split what is above
  double merge_load = 0.0;                                       ///< seconds: merge what is below
};

/// The thresholds from the global sums: every object's load (seconds) over `ranks`, and the
/// migratable objects' load and count.
ReshapeThresholds reshape_thresholds(const ReshapeOptions& options, double total_load, int ranks,
                                     double migratable_load, std::int64_t migratable_objects);

/// How many times `load` is halved until each half is at most `split_load` (0: not split),
/// at most kMaxSplitDepth.
int split_depth(double load, double split_load);

/// What one split-and-merge did (on one rank, or summed).
struct ReshapeCounts {
  std::int64_t splits = 0;  ///< objects split
  std::int64_t pieces = 0;  ///< pieces they became
  std::int64_t merges = 0;  ///< objects made by merging
  std::int64_t merged = 0;  ///< objects merged into them
  ReshapeCounts& operator+=(const ReshapeCounts& o) {
    splits += o.splits, pieces += o.pieces, merges += o.merges, merged += o.merged;
    return *this;
  }
};

/// The virtual ranks' split and merge (lbsim), in place, with the thresholds from `ranks` itself.
/// Pieces of a split object each carry an equal share of its load and footprint, with new ids of
/// its kind (after every id in the input, in rank then object order); a merged pair keeps the
/// first object's id and adds the loads and footprints. Edges follow: an edge of a split object
/// is divided evenly among its pieces (messages rounded down, at least 1; bytes divided exactly),
/// a merged pair's edges become the kept object's, and those between the two are dropped.
ReshapeCounts reshape(std::vector<StrategyInput>& ranks, const ReshapeOptions& options);

}  // namespace tessera::lb
