#pragma once
// The LB data model: what one rank measured in one phase, in the shape of vt's LBDatafile
// (vt's LBDatafile format, lb/README.md), and what a strategy consumes and produces.
//
//   LbData ── ranks[r] : RankData ── phases[] : Phase ── tasks[] : Task (entity, time, subphases)
//                                                     └─ communications[] : Edge (from, to, bytes)
//   StrategyInput: one rank's objects (id, load, migratable) and edges, cut from a Phase.
//   Plan: the migrations a strategy decided, object -> destination rank.
//
// Loads are seconds, communication volumes are bytes. Fields a file may omit are std::optional so
// that what is read writes back unchanged.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::lb {

using Rank = std::int32_t;
using PhaseId = std::int64_t;

inline constexpr Rank no_rank = -1;

// Identity of a migratable or fixed object. vt writes either `id` (home rank and sequence packed
// into one integer, unique on its own) or `seq_id`, which is unique only within its collection.
struct ObjectId {
  std::uint64_t value = 0;            // vt's `id`, or the `seq_id` when is_seq
  std::int64_t collection = -1;       // part of the identity for seq ids only; -1 otherwise
  bool is_seq = false;

  static constexpr ObjectId packed(std::uint64_t id) { return ObjectId{id, -1, false}; }
  static constexpr ObjectId sequential(std::uint64_t seq, std::int64_t collection) {
    return ObjectId{seq, collection, true};
  }
  auto operator<=>(const ObjectId&) const = default;
};

// "id=5" or "seq=3@7" (sequence 3 of collection 7): the form used in error messages and tables.
std::string to_string(const ObjectId& id);

struct ObjectIdHash {
  std::size_t operator()(const ObjectId& id) const noexcept;
};

// An entity as vt describes it: identity plus the attributes the file carried.
struct Entity {
  ObjectId id;
  std::optional<Rank> home;                   // rank that created it and can always locate it
  std::optional<bool> migratable;
  std::optional<std::int64_t> collection_id;  // as written (also carried by seq ids in `id`)
  std::optional<std::int64_t> objgroup_id;   // objgroups: one fixed object per rank
  std::vector<std::int64_t> index;            // collection index, empty when none

  bool operator==(const Entity&) const = default;
};

struct Subphase {
  std::int64_t id = 0;
  double time = 0.0;  // seconds
  bool operator==(const Subphase&) const = default;
};

// One object's record for one phase.
struct Task {
  Entity entity;
  Rank node = no_rank;        // rank it ran on during the phase
  std::string resource = "cpu";
  double time = 0.0;          // seconds
  std::vector<Subphase> subphases;
  std::string user_defined;   // opaque JSON object text, empty when absent (kept for LBAF/vt-tv)
  std::string attributes;     // opaque JSON object text, empty when absent

  bool operator==(const Task&) const = default;
};

// Communication between two entities during a phase, as seen by the recording rank.
struct Edge {
  std::string type = "SendRecv";  // vt category: SendRecv, Broadcast, ...
  Entity from;
  Entity to;
  std::int64_t messages = 0;
  double bytes = 0.0;

  bool operator==(const Edge&) const = default;
};

struct Phase {
  PhaseId id = 0;
  std::vector<Task> tasks;
  std::vector<Edge> communications;

  double load() const;  // sum of task times, seconds
  bool operator==(const Phase&) const = default;
};

// vt's metadata.shared_node: the node (ranks sharing memory) a rank ran on. All four fields are
// integers: id in [0, num_nodes), size = ranks on that node (>= 1), rank = this rank's position
// among them, in [0, size).
struct SharedNode {
  std::int64_t id = 0;
  std::int64_t size = 1;
  std::int64_t rank = 0;
  std::int64_t num_nodes = 1;
  bool operator==(const SharedNode&) const = default;
};

struct RankData {
  Rank rank = 0;
  std::string metadata_extra;  // opaque JSON object of metadata keys besides type/rank/shared_node, or empty
  std::optional<SharedNode> shared_node;  // absent: this rank is a node of its own
  std::vector<Phase> phases;

  const Phase* find_phase(PhaseId id) const;  // nullptr when this rank has no such phase
  bool operator==(const RankData&) const = default;
};

// Which node each rank is on. Empty `node`: every rank is a node of its own (what LB data without
// shared_node means, and the map lbsim and the tests use unless told otherwise); otherwise node[r]
// is rank r's node id for r in [0, P), ids in [0, num_nodes()).
struct NodeMap {
  std::vector<std::int32_t> node;

  std::int32_t node_of(Rank r) const { return node.empty() ? r : node[static_cast<std::size_t>(r)]; }
  // True when some node holds two ranks or more: only then does the map change anything (work
  // model's gamma, HierLB's tree). A map of P nodes of one rank each says what an empty one says.
  bool grouped() const;
  // Every rank on node (r / ranks_per_node): block placement, as mpirun --map-by core fills hosts.
  // Throws std::invalid_argument unless ranks >= 1 and ranks_per_node >= 1.
  static NodeMap blocks(Rank ranks, Rank ranks_per_node);
  // vt's metadata.shared_node of every rank (indexed by rank): its node, the ranks on that node,
  // its place among them in rank order, and the number of distinct nodes. Empty for an empty map.
  std::vector<SharedNode> shared_nodes() const;
  bool operator==(const NodeMap&) const = default;
};

// All ranks of one recording; ranks[r].rank == r.
struct LbData {
  std::vector<RankData> ranks;

  // The node of every rank from the ranks' shared_node (empty when no rank has one). read_lb_data
  // has checked that all ranks or none carry it and that they agree.
  NodeMap node_map() const;

  std::vector<PhaseId> phase_ids() const;       // in file order, of the first rank with phases
  std::vector<double> rank_loads(PhaseId) const;  // seconds per rank; 0 where a rank lacks the phase
  bool operator==(const LbData&) const = default;
};

// --- What strategies see -------------------------------------------------------------------------

// An object's memory as vt and LBAF name it in a task's `user_defined` fields (all bytes):
// task_footprint_bytes (resident while the object lives on a rank), task_working_bytes (extra
// while it runs; a rank needs the largest of its objects'), and a shared block (shared_id,
// shared_bytes) that every object with that id on one rank shares. Zero / -1 when absent.
struct ObjectMemory {
  double footprint_bytes = 0.0;
  double working_bytes = 0.0;
  std::int64_t shared_id = -1;
  double shared_bytes = 0.0;
  bool operator==(const ObjectMemory&) const = default;
};

struct LbObject {
  ObjectId id;
  double load = 0.0;  // seconds predicted for the next phase
  bool migratable = true;
  ObjectMemory memory;
};

struct LbEdge {
  ObjectId from;
  ObjectId to;
  std::int64_t messages = 0;
  double bytes = 0.0;
};

// One rank's share of the balancing problem. The memory and alpha fields feed the work model
// (work_model.hpp); they come from the LB data (task `user_defined` rank_working_bytes, rank
// metadata `rank_alpha` and `memory_limit`) and are left at their defaults otherwise.
struct StrategyInput {
  Rank rank = 0;
  std::vector<LbObject> objects;
  std::vector<LbEdge> edges;
  double working_bytes = 0.0;               // the rank's own memory (rank_working_bytes), bytes
  std::optional<double> rank_alpha;         // seconds of work per second of load on this rank
  std::optional<double> memory_limit;       // bytes; the metadata's per-rank limit
  // Elastic shrink: this rank leaves at this balancing. No strategy moves an object onto it, and
  // run_shrinking (evacuate.hpp) first moves every migratable object off it.
  bool leaving = false;
  // The ranks that stay at this balancing, the same in every rank's input; 0: every rank. The
  // strategies' average load is over these.
  std::int64_t staying = 0;

  double load() const;  // sum of object loads, seconds
};

// Cuts rank `data`'s phase `phase` into a strategy input (objects it ran, SendRecv edges, memory
// fields, rank_alpha and memory_limit). Entities without a `migratable` field count as migratable,
// as in vt. Throws std::out_of_range naming the phase when the rank lacks it, and
// std::invalid_argument naming the object when a memory field is negative or not a number.
StrategyInput strategy_input(const RankData& data, PhaseId phase);

struct Migration {
  ObjectId object;
  Rank from = no_rank;
  Rank to = no_rank;
  auto operator<=>(const Migration&) const = default;
};

// A migration plan: every entry moves one object off the rank it is on; objects not listed stay.
struct Plan {
  std::vector<Migration> migrations;

  void canonicalize();  // sort by object id, so plans from different backends compare equal
  bool operator==(const Plan&) const = default;
};

}  // namespace tessera::lb
