#pragma once
// The work model: what a rank pays for the objects placed on it, beyond their load.
//
//   W(r) = alpha_r x load(r) + beta x max(bytes sent off r, bytes received off r) + gamma
//          + delta x homing(r)
//   M(r) = rank_working_bytes(r) + sum of the shared blocks on r + sum of task_footprint_bytes
//          + max of task_working_bytes                                      (bytes)
//
// Sources: LBAF's AffineCombinationWorkModel and Rank.get_max_memory_usage (DARMA-tasking
// LB-analysis-framework), vt's TemperedWMin (vt/src/vt/vrt/collection/balance/temperedwmin), and
// the communication- and memory-constrained balancing of Pebay et al., "CCM-LB" (Sandia report,
// 2023). As there: communication counts SendRecv edges between objects, an edge between two objects
// on the same rank costs nothing, an edge recorded by several ranks counts once (keyed by sender
// and receiver); a shared block is identified by its shared_id and the rank it was on at the start
// (its home); homing(r) is the bytes of blocks on r whose home is another rank; alpha_r is the
// rank's metadata `rank_alpha` when present, else the `alpha` key (LBAF reads only the former).
// Where we differ from vt's TemperedWMin: its work adds per-object estimates of communication,
// so two objects that talk and share a rank still pay; here a rank's work is exact for its set of
// objects (see RankWork), which is what keeps communicating objects together.
//
// Memory limits, as CCM-LB's: a placement is admissible when M(r) <= limit(r) on every rank, where
// limit(r) is the smaller of the `memory_limit` key (0: none) and the rank's metadata
// `memory_limit`. Strategies never make a move that takes a rank past its limit.
//
// Loads and work are seconds, beta is seconds per byte, delta seconds per byte, memory is bytes.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tessera/lb/args.hpp"
#include "tessera/lb/model.hpp"

namespace tessera::lb {

struct WorkModel {
  double alpha = 1.0;
  double beta = 0.0;
  double gamma = 0.0;
  double delta = 0.0;
  double memory_limit = 0.0;  // bytes per rank; 0: no limit beyond the ranks' metadata

  // alpha, beta, gamma, delta, memory_limit: the keys every strategy with a work model takes.
  static std::vector<KeySpec> keys();
  static WorkModel from_args(const Args& args);

  // True when work is load (up to the factor alpha, the same on every rank): strategies then run
  // their load-only code, bit for bit what they did before the work model.
  bool load_only(std::span<const StrategyInput> ranks) const;
  bool load_only_here(const StrategyInput& rank) const;  // the same, judged from one rank
  double alpha_of(const StrategyInput& rank) const { return rank.rank_alpha.value_or(alpha); }
  // +inf when the rank has no limit.
  double limit_of(const StrategyInput& rank) const;

  // Work of every rank (indexed by rank) with the objects where they are, seconds. Shared blocks
  // are homed where their objects are in `start` (the placement before balancing) when given,
  // else where they are now.
  std::vector<double> rank_work(std::span<const StrategyInput> ranks,
                                std::span<const StrategyInput> start = {}) const;
};

// M(r) of one rank with its objects, bytes. A shared block counts once per rank.
double rank_memory(const StrategyInput& rank);

// Ranks whose memory exceeds their limit.
std::int64_t memory_violations(const WorkModel& model, std::span<const StrategyInput> ranks);

// One end of a communication edge, as the object at the other end sees it.
struct HalfEdge {
  ObjectId peer;
  double bytes = 0.0;
  bool out = true;  // this object sends to peer (else receives from it)
};

// The edges of each object of `ranks` (indexed by rank), keyed by object: an edge recorded by
// several ranks appears once; edges whose ends are not both objects of `ranks`, and self edges,
// are dropped. Used where every rank is visible (lbsim, tests); TemperedLB builds the same lists
// by messages.
std::unordered_map<ObjectId, std::vector<HalfEdge>, ObjectIdHash> object_edges(
    std::span<const StrategyInput> ranks);

// The work and memory of one rank as objects come and go, exact for its set of objects: an
// object's edges to objects on the same rank cost nothing. What-if queries (work_without,
// work_with, memory_with) cost O(edges of the object) and change nothing.
class RankWork {
 public:
  RankWork(const WorkModel& model, Rank rank, double alpha, double working_bytes);

  // `home` is the rank the object's shared block belongs to.
  void add(const LbObject& object, std::span<const HalfEdge> edges, Rank home);
  void remove(const LbObject& object, std::span<const HalfEdge> edges, Rank home);

  double load() const { return load_; }
  double work() const;
  double memory() const;  // bytes
  double work_without(const LbObject& object, std::span<const HalfEdge> edges, Rank home) const;
  double work_with(const LbObject& object, std::span<const HalfEdge> edges, Rank home) const;
  double memory_with(const LbObject& object, Rank home) const;
  bool holds(const ObjectId& id) const { return ids_.contains(id); }
  // The largest working bytes of the objects here (0 when none): what a newcomer's working bytes
  // must exceed to raise M(r).
  double largest_working() const { return working_.empty() ? 0.0 : *working_.rbegin(); }
  bool holds_block(std::int64_t shared_id, Rank home) const { return blocks_.contains({shared_id, home}); }
  // The shared blocks here, keyed (shared_id, home), with their bytes: what a sender must know to
  // tell whether an object's block is already on this rank (then it adds no bytes and no homing).
  std::vector<std::pair<std::pair<std::int64_t, Rank>, double>> shared_blocks() const {
    std::vector<std::pair<std::pair<std::int64_t, Rank>, double>> out;
    out.reserve(blocks_.size());
    for (const auto& [key, value] : blocks_) out.emplace_back(key, value.first);
    return out;
  }

 private:
  struct Volumes {
    double sent = 0.0;
    double received = 0.0;
  };
  // Off-rank volumes after adding (+1) or removing (-1) the object.
  Volumes volumes_after(std::span<const HalfEdge> edges, const ObjectId& self, int sign) const;
  double homing_after(const LbObject& object, Rank home, int sign) const;
  double work_of(double load, Volumes v, double homing) const;

  const WorkModel* model_;
  Rank rank_;
  double alpha_;
  double working_bytes_;
  double load_ = 0.0;
  Volumes volumes_;
  double homing_ = 0.0;
  double footprint_ = 0.0;
  double shared_ = 0.0;
  std::unordered_set<ObjectId, ObjectIdHash> ids_;
  std::multiset<double> working_;
  std::map<std::pair<std::int64_t, Rank>, std::pair<double, int>> blocks_;  // -> bytes, objects
};

}  // namespace tessera::lb
