#pragma once
// The transfer stage of TemperedLB on one rank (seed 003, Algorithm 2 and Algorithms 4-6), as pure
// functions of the rank's objects, its load, the underloaded peers it heard of and a random stream:
// no communication, so each piece is tested exactly on its own (tests/lb/tempered).
//
//   order_objects   Algorithm 2 line 2 (ORDERTASKS) with the alternatives of section V-E;
//   Cmf             Algorithm 2 lines 20-31 (BUILDCMF) and the sampling of line 8;
//   criterion_holds Algorithm 2 lines 32-38 (EVALUATECRITERION);
//   transfer        Algorithm 2 lines 1-19 (TRANSFER);
//   transfer_in_turn one rank's turn of transfer=sequential, TRANSFER as LBAF ran it;
//   load_swap_offer, choose_load_swap  the swap move of the load-only transfer (the swaps key):
//                   what a rank that moved nothing offers, and what its peer takes and gives back.
//
// Loads are seconds; `average` is l_ave, the average rank load over all ranks.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tessera/lb/model.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lb/tempered_random.hpp"

namespace tessera::lb::tempered {

// Indices into `objects` of its migratable objects, in the order the transfer stage tries them.
// `load` is the rank's load l_p (fixed objects included). Ties keep storage order.
//   arbitrary          storage order (what vt and LBAF call arbitrary: hash or index order);
//   element_id         ascending object id;
//   load_intensive     Algorithm 4: descending load;
//   fewest_migrations  Algorithm 5: with excess e = l_p - l_ave, the smallest object heavier than
//                      e (cut) first, then lighter ones by descending load, then heavier ones by
//                      ascending load; all by descending load when no object exceeds e;
//   lightweight        Algorithm 6: the marginal object (the first, in ascending order, at which
//                      the running sum reaches e) first, then lighter ones by descending load,
//                      then heavier ones by ascending load.
std::vector<std::size_t> order_objects(TemperedOptions::Ordering ordering,
                                       std::span<const LbObject> objects, double average,
                                       double load);

// keep_heaviest: `order` without the heaviest object of `objects` it lists (the first in storage
// order among equals) when that object's load exceeds `average`. Any placement leaves some rank
// with at least that load; the sender reaches it by sending the rest, while a receiver that
// already carries load would end above it. Unchanged when no object exceeds the average.
void keep_heaviest(std::vector<std::size_t>& order, std::span<const LbObject> objects, double average);

// An underloaded rank this rank heard of, with the load it believes that rank has.
struct Peer {
  Rank rank = no_rank;
  double load = 0.0;  // seconds
};

// The cumulative mass function over peers: peer i has weight max(0, 1 - load_i / l_s), with
// l_s = l_ave (original) or max(l_ave, max peer load) (normbymax, section V-C).
class Cmf {
 public:
  void build(std::span<const Peer> peers, double average, TemperedOptions::Cmf kind);
  // The same CMF as build() after peers[changed]'s load grew (an accepted transfer), in fewer
  // operations: unless l_s changes, the running sums before `changed` stay and the rest are
  // summed again in the same order, so the sums are bit for bit build()'s.
  void update(std::span<const Peer> peers, std::size_t changed, double average, TemperedOptions::Cmf kind);

  // The peer index drawn for u in [0, 1) (inverse transform sampling); npos when no peer has a
  // positive weight.
  std::size_t sample(double u) const;

  // phi_j: running sums of the normalised weights (the last is 1 unless every weight is 0).
  std::vector<double> cumulative() const;
  double scale() const { return scale_; }  // l_s, seconds

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

 private:
  std::vector<double> running_;  // unnormalised running sums of the weights
  double scale_ = 0.0;
};

// grapevine: l_x + load(o) < l_ave; relaxed: load(o) < l_p - l_x (Lemma 1).
bool criterion_holds(TemperedOptions::Criterion criterion, double peer_load, double object_load,
                     double average, double load);

struct Proposal {
  std::size_t object = 0;  // index into the objects given to transfer()
  std::size_t peer = 0;    // index into the peers given to transfer()
};

struct TransferOutcome {
  std::vector<Proposal> accepted;  // in the order they were decided
  std::int64_t rejected = 0;       // proposals the criterion refused
  double load = 0.0;               // l_p after the accepted transfers, seconds
};

// Algorithm 2 on a rank with `objects` and load `load`: while load > threshold x average and
// objects remain in the chosen order, draw a peer from the CMF (one draw of `random` per object
// tried) and propose the object to it. Accepted transfers update the peer's believed load in
// `peers` (line 11) and, with cmf=normbymax, rebuild the CMF (line 6); with cmf=original the CMF
// is built once (line 4). Stops early when no peer has a positive weight.
TransferOutcome transfer(std::span<const LbObject> objects, double load, double average,
                         std::vector<Peer>& peers, const TemperedOptions& options, Random& random);

// One rank's turn with transfer=sequential: Algorithm 2 as LBAF's transfer stage runs it (the
// source of seed 003's tables). `peers` holds the loads this rank believes (gossip plus its own
// transfers) and drives the CMF; `current` (aligned with peers) holds each peer's load right now,
// after the turns of the ranks before this one, and drives the criterion. While load > threshold x
// average: try the next object in the chosen order against a peer drawn from the CMF; on
// acceptance the object's load moves (in `current` and in `load`), the peer's believed load grows
// by it, or the peer is forgotten (no longer drawn) if it would now hold more than this rank, the
// CMF is rebuilt (normalised as options.cmf says), and the traversal starts again from the first
// remaining object. Stops when every remaining object was rejected in one pass, when no peer is
// left, or when no remembered peer has a positive weight. One draw of `random` per object tried.
TransferOutcome transfer_in_turn(std::span<const LbObject> objects, double load, double average,
                                 std::vector<Peer>& peers, std::vector<double>& current,
                                 const TemperedOptions& options, Random& random);

// Swap moves (src/strategies/tempered/load_swap.cpp has the design and its sources). A rank of
// load `load` whose transfer accepted nothing offers to a peer of load `peer_load` the indices of
// its migratable objects u with gap <= u < gap + peer_load (gap = load - peer_load: lighter ones
// could move alone, heavier ones cannot come back balanced), lightest first, at most `count`.
std::vector<std::size_t> load_swap_offer(std::span<const LbObject> objects, double load, double peer_load,
                                         std::size_t count);

// The receiver's choice among `offered` unit loads from a sender of load `sender_load`: one unit to
// take and a set of its own migratable objects (`own`, its load `load`) to give back, so that the
// pair's maximum falls, max(sender_load - u + B, load + u - B) < sender_load (criterion=grapevine:
// load + u - B < average too), by at least 5 % of u + B. Of the sets tried for each unit (none, the single object nearest
// u - (sender_load - load) / 2, the pair nearest it, a greedy fill by descending load) the lowest
// maximum wins, but one more object must lower it by more than 0.001 x average and one fewer may
// raise it by as much; ties go to the earlier unit. unit is npos when none holds.
struct LoadSwap {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t unit = npos;          // index into offered
  std::vector<std::size_t> back;    // indices into own, by ascending load
  double sender_after = 0.0;        // the sender's load after the swap, seconds
  double after = 0.0;               // the receiver's
};
LoadSwap choose_load_swap(std::span<const double> offered, std::span<const LbObject> own, double sender_load,
                          double load, TemperedOptions::Criterion criterion, double average);

}  // namespace tessera::lb::tempered
