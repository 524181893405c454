#pragma once
// lbsim's engine: one phase of LB data as per-rank strategy inputs, one strategy run over P virtual
// ranks (the same code a live job runs), and what the run achieved.

#include <optional>
#include <string>
#include <vector>

#include "tessera/lb/load_model.hpp"
#include "tessera/lb/statistics.hpp"
#include "tessera/lb/strategy.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lbsim/work_model.hpp"

namespace tessera::lbsim {

// The strategy inputs of phase `phase` on `ranks` virtual ranks (0: as many as the data has).
// With a different rank count (a what-if), recorded rank r's objects start on rank r mod ranks.
// Throws InputError if the phase is missing (listing the phases there are) or ranks < 0.
std::vector<lb::StrategyInput> phase_inputs(const lb::LbData& data, lb::PhaseId phase, lb::Rank ranks = 0);

// phase_inputs of `phase` with every object's load replaced by `model`'s prediction from its
// loads in the data's phases up to and including `phase` (file order; lb/load_model.hpp): what a
// live run with --tessera_lb_model would show the strategy after that phase. Throws as
// phase_inputs does.
std::vector<lb::StrategyInput> predicted_inputs(const lb::LbData& data, lb::PhaseId phase,
                                                const lb::LoadModelSpec& model, lb::Rank ranks = 0);

// What a strategy's run cost on the virtual ranks: its messages, bytes and rounds, and its time
// on a network of the given latency and bandwidth (Network). Counted by the VirtualBackend.
struct Traffic {
  std::int64_t messages = 0;           // sent, all ranks
  std::int64_t bytes = 0;              // sent, all ranks
  std::int64_t max_messages_sent = 0;  // by the rank that sent most
  std::int64_t max_messages_received = 0;
  std::int64_t max_bytes_sent = 0;
  std::int64_t max_bytes_received = 0;
  // The busiest rank's (sent + received): HierLB's and GreedyLB's root, a gossip's hot spot.
  std::int64_t max_messages_handled = 0;
  std::int64_t max_bytes_handled = 0;
  lb::Rank busiest_rank = 0;           // the rank of max_messages_handled
  // Rank 0's, the root of GreedyLB's gather and HierLB's tree: what it receives is what it must
  // hold of the other ranks' data (GreedyLB: every object; HierLB: its children's reports).
  std::int64_t root_messages_received = 0;
  std::int64_t root_bytes_received = 0;
  std::int64_t rounds = 0;             // on the critical path (virtual_backend.hpp)
  double busiest_rank_s = 0.0;         // wall seconds in the busiest rank's steps and handlers
};

// The network a strategy's modelled wall time is priced on. Defaults: seed 003's EMPIRE runs used
// Mellanox EDR InfiniBand, 100 Gb/s per link (12.5e9 bytes/s); the latency, 1.5e-6 s, is our
// assumption for MPI's one-way small-message latency on such a network (seed 003 gives none).
struct Network {
  double latency_s = 1.5e-6;
  double bandwidth_Bps = 12.5e9;
};

// The modelled wall time of a strategy, seconds: rounds x latency (every message on the critical
// path pays it once) + the busiest rank's bytes in and out / bandwidth + the busiest rank's own
// compute (the rank that handled most time in lbsim, by its wall clock). Additive: no overlap of
// compute and communication is assumed, so it is an upper estimate of each term's share.
double modelled_seconds(const Traffic& traffic, const Network& network);

struct SimResult {
  lb::Statistics before;          // rank work, before balancing
  lb::Statistics after;           // rank work, with the plan applied (the staying ranks only after a shrink)
  // Bounds in the quantity reported beside them (work): no placement has a lower maximum rank
  // work than lower_bound_max_work, nor (with beta = 0) a lower I of work than lower_bound. With
  // beta > 0 the average work itself depends on the placement, so there is no I bound (nullopt).
  std::optional<double> lower_bound;
  double lower_bound_max_work = 0.0;
  std::int64_t migrations = 0;
  std::int64_t memory_violations_before = 0;  // ranks over their memory limit (work_model.hpp)
  std::int64_t memory_violations_after = 0;
  bool limited = false;  // some rank has a memory limit
  double strategy_s = 0.0;        // wall seconds in Strategy::run
  Traffic traffic;                // of the strategy's run (zero without one)
  std::optional<lb::TemperedReport> iterations;  // TemperedLB and GrapevineLB only
  lb::Plan plan;
  std::vector<lb::StrategyInput> balanced;       // inputs with the plan applied
};

// The node map lbsim balances with: `ranks_per_node` > 0 places ranks on nodes in blocks of that
// many (whatever the data says); otherwise the data's shared_node when `ranks` is the data's rank
// count (0 or equal), and none (a node per rank) for a what-if on another count.
lb::NodeMap phase_nodes(const lb::LbData& data, lb::Rank ranks, lb::Rank ranks_per_node);

// Runs `strategy` on a VirtualBackend of inputs.size() ranks placed on nodes by `nodes` (empty: a
// node per rank); work is reported by the same map. Without a strategy, the result describes the
// inputs as they are (no migrations). Throws std::invalid_argument if `nodes` is neither empty nor
// one entry per rank.
SimResult simulate(lb::Strategy* strategy, const std::vector<lb::StrategyInput>& inputs, const WorkModel& work,
                   const lb::NodeMap& nodes = {});

// max(avg, largest object) / avg - 1 over the objects of `inputs` (0 when there is no load).
double lower_bound_imbalance(const std::vector<lb::StrategyInput>& inputs);

// The same bound in work: max rank work >= alpha x max(avg load, largest object) (the
// communication and homing terms can be 0 at best; alpha is the smallest of the ranks'), and, when
// beta = gamma = delta = 0 and no rank has its own alpha (average work then fixed), the I of work
// that follows; nullopt I otherwise.
struct WorkBound {
  double max_work = 0.0;
  std::optional<double> imbalance;
};
WorkBound work_lower_bound(const std::vector<lb::StrategyInput>& inputs, const WorkModel& work);

struct PhaseStatistics {
  lb::PhaseId phase = 0;
  lb::Statistics work;  // rank work of the phase as recorded, no balancing
};

// Every phase of `data`, in file order, with ranks on nodes by `nodes` (empty: a node per rank).
std::vector<PhaseStatistics> phase_statistics(const lb::LbData& data, const WorkModel& work,
                                              const lb::NodeMap& nodes = {});

// The recorded phase `phase` re-placed as in `balanced` (one rank file per entry): tasks keep
// their records with `node` set to their new rank; each communication goes to the rank that now
// holds its sender (or stays where it was when the sender is not an object of the phase). With a
// node map (one entry per entry of `balanced`), every rank's metadata.shared_node says its node.
lb::LbData placement_data(const lb::LbData& data, lb::PhaseId phase,
                          const std::vector<lb::StrategyInput>& balanced, const lb::NodeMap& nodes = {});

}  // namespace tessera::lbsim
