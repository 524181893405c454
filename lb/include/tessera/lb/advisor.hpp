#pragma once
// The balancer advisor: which --tessera_lb_* flags, and how much faster. `lbsim advise`
// prints its ranking of recorded LB data; a live run with --tessera_lb_advise its top three.
//
// For each option of a small grid (no LB; GreedyLB, HierLB, GrapevineLB and TemperedLB with their
// main keys swept; intervals 1, 5, 10, 20, 50 and auto; each load model) the recorded run is
// re-played phase by phase:
//   - phase p runs on the replay's current placement: every object keeps the load it recorded in p
//     wherever it now is, fixed (non-migratable) objects stay on their recorded rank, and the phase
//     costs its most loaded rank's work (rank work = rank_alpha x load when the data's metadata
//     carries rank_alpha, else load: the work model the data carries), plus, when a live Tessera
//     run recorded each phase's time on its load clock (metadata `phase_time_s`, lb/manager's
//     lb_data_output.hpp), the phase's fixed part: its recorded time beyond its most loaded
//     rank's recorded work (waiting, collectives, the runtime's own time), which no placement
//     changes;
//   - after p, the option's rule decides whether to balance, as the live manager does
//     (p % N == 0, or AutoInterval fed the predicted rank loads and told each balancing's cost);
//   - balancing runs the very strategy code on P virtual ranks, which sees each object's load
//     predicted by the option's load model from the phases so far (lb/load_model.hpp); the plan
//     moves objects for the phases that follow;
//   - a balancing costs its strategy's time (measured wall time on the virtual ranks divided by P,
//     since one process runs all P ranks in turn; or a fixed CostModel::strategy_s) plus migration:
//     on each rank, the larger of the bytes it sends and receives over the bandwidth plus
//     CostModel::latency_s per object it sends or receives, the slowest rank's.
// An object's bytes are its task_footprint_bytes (LB data `user_defined`), 0 when absent.
// Predicted time to solution = sum of phase costs + balancing costs. Strategies see no
// communication edges (every grid row balances load).
//
// Ranking: predicted time ascending, then fewer migrations, then grid order: deterministic with a
// fixed CostModel::strategy_s (measured strategy times vary a little from run to run).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/lb/args.hpp"
#include "tessera/lb/load_model.hpp"
#include "tessera/lb/model.hpp"
#include "tessera/lb/report.hpp"

namespace tessera::lb {

// One row of the grid: a strategy with its arguments (empty: no LB), an interval ("1" .. "50" or
// "auto") and a load model.
struct AdviseOption {
  std::string strategy;
  std::string args;  // "key=value ..." exactly as --tessera_lb_args takes it
  std::string interval = "1";
  LoadModelSpec model;

  // The flags that run this option, ready to paste onto a tessera command line, e.g.
  // `--tessera_lb_name=TemperedLB --tessera_lb_args="iters=4 deterministic=true"
  // --tessera_lb_interval=10 --tessera_lb_model=linear:5`; "" for no LB.
  std::string flags() const;
  // For tables: "no LB" or "TemperedLB iters=4 deterministic=true, every 10, linear:5".
  std::string label() const;
};

// The keys each strategy's rows sweep, and the values (the documented grid; README of lbsim).
struct GridKey {
  std::string strategy;
  std::string key;
  std::vector<std::string> values;
};
std::vector<GridKey> advise_grid_keys();
inline const std::vector<std::string>& advise_intervals() {
  static const std::vector<std::string> intervals{"1", "5", "10", "20", "50", "auto"};
  return intervals;
}
std::vector<LoadModelSpec> advise_models();

// The grid: no LB first, then every strategy, key value, interval and model. `strategy` non-empty
// keeps only that strategy's rows (and no LB); `args` ("key=value ...") keeps only the rows with
// those values. Throws ArgumentError naming the flag for a strategy outside the grid, a key the
// strategy's grid does not sweep, or a value outside the key's grid (listing the grid's values).
std::vector<AdviseOption> advise_grid(const std::string& strategy = {}, const std::string& args = {});

struct CostModel {
  double bandwidth_Bps = 1e9;        // bytes per second of migration
  // What the report says the bandwidth came from.
  std::string bandwidth_source = "lbsim's default; the LB data records no migrations of its own";
  double latency_s = 1e-4;           // seconds per migrated object (each end)
  std::optional<double> strategy_s;  // fixed seconds per strategy run; nullopt: measured
  bool fixed_loads_counted = true;   // strategies see non-migratable objects' loads (else 0)
};

// The recorded phases prepared for many replays.
class ReplayData {
 public:
  // Phases [first, last] of `data` (phase ids, inclusive; phases before `first` only warm the load
  // history up). Throws ArgumentError naming --phases when the data lacks one of them, when
  // first > last, or when the data has no phases.
  ReplayData(const LbData& data, PhaseId first, PhaseId last);

  Rank ranks() const { return ranks_; }
  const std::vector<PhaseId>& phases() const { return phases_; }
  std::int64_t objects() const { return static_cast<std::int64_t>(ids_.size()); }
  // True when the data carried phase times (each phase's fixed part is then counted).
  bool walled() const { return walled_; }
  // The replayed phases' recorded seconds (each phase's slowest rank), summed; 0 without them.
  double recorded_wall_s() const { return recorded_wall_s_; }
  // Bytes per second of the recording run's own migrations (metadata migration_bytes and
  // migration_s summed over ranks, lb/manager's lb_data_output.hpp); nullopt when it has none.
  std::optional<double> recorded_bandwidth_Bps() const { return recorded_bandwidth_Bps_; }

 private:
  friend struct Replayer;
  struct Load {
    std::int32_t object = 0;  // dense index
    double load = 0.0;        // seconds
  };
  Rank ranks_ = 0;
  std::vector<PhaseId> phases_;              // replayed
  std::vector<std::vector<Load>> warmup_;        // loads of the phases before the first
  std::vector<std::vector<Load>> loads_;         // per replayed phase
  std::vector<double> overhead_;                 // per replayed phase: its fixed part, seconds
  bool walled_ = false;
  double recorded_wall_s_ = 0.0;
  std::optional<double> recorded_bandwidth_Bps_;
  std::vector<ObjectId> ids_;
  std::vector<char> migratable_;
  std::vector<double> bytes_;
  std::vector<Rank> start_;  // rank at its first record
  std::vector<double> alpha_;    // per rank
};

struct ReplayResult {
  double predicted_s = 0.0;  // time to solution: phases + balancing
  double phases_s = 0.0;     // the phases alone
  double strategy_s = 0.0;
  double migration_s = 0.0;
  std::int64_t migrations = 0;
  std::int64_t balancings = 0;
  double lb_s() const { return strategy_s + migration_s; }
};

// Re-plays `data` under `option` (see the top of this file).
ReplayResult replay(const ReplayData& data, const AdviseOption& option, const CostModel& cost);

struct AdviceRow {
  AdviseOption option;
  ReplayResult result;
  double gain = 1.0;  // predicted time of no LB / predicted time of this row
};

// The bandwidth of `cost` becomes the data's recorded one (recorded_bandwidth_Bps), and its
// source says so, when the data has one; `cost` is left as it is otherwise.
void use_recorded_bandwidth(const ReplayData& data, CostModel& cost);

// Every option replayed and ranked best first (see the top of this file).
std::vector<AdviceRow> advise(const ReplayData& data, const std::vector<AdviseOption>& grid, const CostModel& cost);

// The Advice section of the HTML report: every option over all of `data`'s phases, the best
// `rows` of them and no LB appended to options.advice, with a note on the costs in advice_note;
// the data's recorded bandwidth replaces cost's when it has one. Nothing for data without phases.
// Throws as ReplayData does.
void add_advice(const LbData& data, std::size_t rows, CostModel cost, ReportOptions& options);

}  // namespace tessera::lb
