#pragma once
// The work model: what a rank pays for the objects placed on it, beyond their load.
//
//   W(r) = alpha_r x load(r) + beta x max(bytes r sends off its node, bytes r receives from off its node)
//          + gamma x max(bytes r sends to other ranks of its node, bytes r receives from them)
//          + delta x homing(r)
//   M(r) = rank_working_bytes(r) + sum of the shared blocks on r + sum of task_footprint_bytes
//          + max of task_working_bytes                                      (bytes)
//
// Sources: LBAF's AffineCombinationWorkModel and Rank.get_max_memory_usage (DARMA-tasking
// LB-analysis-framework), vt's TemperedWMin and TemperedLB (vt/src/vt/vrt/collection/balance/
// temperedlb: computeWork = alpha x load + beta x inter volume + gamma x intra volume + delta x shared
// volume, each volume the larger of sent and received; its key help names beta "inter-node" and
// gamma "intra-node communication"), and the communication- and memory-constrained balancing of
// Pebay et al., "CCM-LB" (Sandia report, 2023). As there: communication counts SendRecv edges
// between objects, an edge between two objects on the same rank costs nothing, an edge recorded by
// several ranks counts once (keyed by sender and receiver); a shared block is identified by its
// shared_id and the rank it was on at the start (its home); homing(r) is the bytes of blocks on r
// whose home is another rank; alpha_r is the rank's metadata `rank_alpha` when present, else the
// `alpha` key (LBAF reads only the former).
//
// Nodes (the node map, model.hpp: LB data's metadata.shared_node, or the live runtime's): an edge
// from an object on r to one on another rank of r's node is intra-node and costs gamma per byte;
// to one on another node, inter-node, beta per byte. Without a node map every rank is a node of its
// own, every off-rank byte is inter-node and W(r) is LBAF's beta term exactly, as before nodes.
// Where a peer is: where it was when the edges were gathered (RankWork) -- the start of balancing
// in TemperedLB, which does not follow a peer that moved since (vt's TemperedLB reads
// getCurrNode() once per phase alike); lbsim's and the tests' rank_work place every object exactly.
//
// Choices, and why:
//   - gamma was LBAF's constant ("work every rank pays", AffineCombinationWorkModel) until nodes came.
//     A constant added to every rank changes no strategy's choice and every LBAF configuration we
//     compare against sets it to 0 (tests/perf/lbmodel), so gamma now takes vt's meaning, seconds per
//     intra-node byte; an LBAF config with gamma != 0 is read with vt's meaning, not LBAF's.
//   - vt's TemperedLB charges gamma on bytes between objects of the same rank (vt's "node" is a
//     rank). Here those stay free, as LBAF's model has them and RankWork needs to keep communicating
//     objects together; gamma is charged on bytes between ranks of one node.
// Where we differ from vt's TemperedWMin: its work adds per-object estimates of communication,
// so two objects that talk and share a rank still pay; here a rank's work is exact for its set of
// objects (see RankWork), which is what keeps communicating objects together.
//
// Memory limits, as CCM-LB's: a placement is admissible when M(r) <= limit(r) on every rank, where
// limit(r) is the smaller of the `memory_limit` key (0: none) and the rank's metadata
// `memory_limit`. Strategies never make a move that takes a rank past its limit.
//
// Loads and work are seconds, beta and gamma are seconds per byte, delta seconds per byte, memory
// is bytes.

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
  // else where they are now. `nodes` places the ranks on nodes (empty: a node per rank); it must be
  // empty or hold one entry per rank of `ranks`.
  std::vector<double> rank_work(std::span<const StrategyInput> ranks, std::span<const StrategyInput> start = {},
                                const NodeMap& nodes = {}) const;
};

// M(r) of one rank with its objects, bytes. A shared block counts once per rank.
double rank_memory(const StrategyInput& rank);

// Ranks whose memory exceeds their limit.
std::int64_t memory_violations(const WorkModel& model, std::span<const StrategyInput> ranks);

// One end of a communication edge, as the object at the other end sees it. The nodes are those of
// the ranks the two objects were on when the edge was gathered, -1 when unknown or when the node map
// groups nothing (every rank a node of its own): the bytes are then inter-node, as without nodes.
struct HalfEdge {
  ObjectId peer;
  double bytes = 0.0;
  bool out = true;  // this object sends to peer (else receives from it)
  std::int32_t peer_node = -1;  // node of the peer's rank
  std::int32_t own_node = -1;   // node of this object's rank (what the peer's half-edge says of it)
};

// The edges of each object of `ranks` (indexed by rank), keyed by object: an edge recorded by
// several ranks appears once; edges whose ends are not both objects of `ranks`, and self edges,
// are dropped. With a grouping node map (NodeMap::grouped), each half-edge carries the nodes of
// the ranks its two objects are on in `ranks`. Used where every rank is visible (lbsim, tests);
// TemperedLB builds the same lists by messages.
std::unordered_map<ObjectId, std::vector<HalfEdge>, ObjectIdHash> object_edges(
    std::span<const StrategyInput> ranks, const NodeMap& nodes = {});

// The work and memory of one rank as objects come and go, exact for its set of objects: an
// object's edges to objects on the same rank cost nothing, its other edges cost beta or gamma per
// byte by the half-edge's peer_node (gamma when it is `node`, beta otherwise). What-if queries
// (work_without, work_with, memory_with) cost O(edges of the object) and change nothing.
class RankWork {
 public:
  // `node`: this rank's node, -1 when the node map groups nothing (then every byte off the rank is
  // inter-node and gamma never applies).
  RankWork(const WorkModel& model, Rank rank, double alpha, double working_bytes, std::int32_t node = -1);

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
    double sent = 0.0;      // to other nodes
    double received = 0.0;  // from other nodes
    double intra_sent = 0.0;      // to other ranks of this node
    double intra_received = 0.0;  // from other ranks of this node
  };
  // Off-rank volumes after adding (+1) or removing (-1) the object.
  Volumes volumes_after(std::span<const HalfEdge> edges, const ObjectId& self, int sign) const;
  double homing_after(const LbObject& object, Rank home, int sign) const;
  double work_of(double load, Volumes v, double homing) const;

  const WorkModel* model_;
  Rank rank_;
  std::int32_t node_;
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
