#pragma once
// lbsim's engine: one phase of LB data as per-rank strategy inputs, one strategy run over P virtual
// ranks (the same code a live job runs), and what the run achieved.

#include <optional>
#include <string>
#include <vector>

#include "tessera/lb/statistics.hpp"
#include "tessera/lb/strategy.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lbsim/work_model.hpp"

namespace tessera::lbsim {

// The strategy inputs of phase `phase` on `ranks` virtual ranks (0: as many as the data has).
// With a different rank count (a what-if), recorded rank r's objects start on rank r mod ranks.
// Throws InputError if the phase is missing (listing the phases there are) or ranks < 0.
std::vector<lb::StrategyInput> phase_inputs(const lb::LbData& data, lb::PhaseId phase, lb::Rank ranks = 0);

struct SimResult {
  lb::Statistics before;          // rank work, before balancing
  lb::Statistics after;           // rank work, with the plan applied
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
  std::optional<lb::TemperedReport> iterations;  // TemperedLB and GrapevineLB only
  lb::Plan plan;
  std::vector<lb::StrategyInput> balanced;       // inputs with the plan applied
};

// Runs `strategy` on a VirtualBackend of inputs.size() ranks. Without a strategy, the result
// describes the inputs as they are (no migrations).
SimResult simulate(lb::Strategy* strategy, const std::vector<lb::StrategyInput>& inputs, const WorkModel& work);

// max(avg, largest object) / avg - 1 over the objects of `inputs` (0 when there is no load).
double lower_bound_imbalance(const std::vector<lb::StrategyInput>& inputs);

// The same bound in work: max rank work >= alpha x max(avg load, largest object) + gamma (the
// communication and homing terms can be 0 at best; alpha is the smallest of the ranks'), and, when
// beta = delta = 0 and no rank has its own alpha (average work then fixed), the I of work that
// follows; nullopt I otherwise.
struct WorkBound {
  double max_work = 0.0;
  std::optional<double> imbalance;
};
WorkBound work_lower_bound(const std::vector<lb::StrategyInput>& inputs, const WorkModel& work);

struct PhaseStatistics {
  lb::PhaseId phase = 0;
  lb::Statistics work;  // rank work of the phase as recorded, no balancing
};

// Every phase of `data`, in file order.
std::vector<PhaseStatistics> phase_statistics(const lb::LbData& data, const WorkModel& work);

// The recorded phase `phase` re-placed as in `balanced` (one rank file per entry): tasks keep
// their records with `node` set to their new rank; each communication goes to the rank that now
// holds its sender (or stays where it was when the sender is not an object of the phase).
lb::LbData placement_data(const lb::LbData& data, lb::PhaseId phase,
                          const std::vector<lb::StrategyInput>& balanced);

}  // namespace tessera::lbsim
