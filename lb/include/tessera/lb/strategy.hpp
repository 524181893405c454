#pragma once
// The strategy interface: a load balancer takes each rank's objects (id, load, migratable, edges)
// and produces a migration plan, communicating only through comm::Backend (comm.hpp). The same
// object runs in a live job (one hosted rank per process) and over virtual ranks (all hosted).

#include <memory>
#include <span>
#include <string_view>

#include "tessera/lb/comm.hpp"
#include "tessera/lb/model.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb {

class Strategy {
 public:
  virtual ~Strategy() = default;

  virtual std::string_view name() const = 0;

  // Collective over `backend`. hosted[i] is the input of backend.local_ranks()[i]. Returns the
  // migrations of objects on hosted ranks, canonicalized (the live backend's plan is this rank's
  // share; the virtual backend's plan is the whole plan).
  // Throws std::invalid_argument if hosted.size() differs from the number of hosted ranks.
  virtual Plan run(comm::Backend& backend, std::span<const StrategyInput> hosted) = 0;

  // The work model the strategy was configured with (work_model.hpp: what it balances, or just
  // the memory limits it honours); nullptr when it has none (it balances load, with no limits).
  virtual const WorkModel* work_model() const { return nullptr; }
};

// The ranks an average load is taken over: the staying ranks of a shrink (StrategyInput::staying,
// the same in every input), else every rank of `backend`.
Rank staying_ranks(const comm::Backend& backend, std::span<const StrategyInput> hosted);

// Shared precondition check of Strategy::run implementations.
void check_hosted_inputs(const comm::Backend& backend, std::span<const StrategyInput> hosted);

// Applies `plan` to per-rank inputs (all ranks, indexed by rank): the loads the next phase would see.
// Throws std::invalid_argument if a migration names an object not on its `from` rank.
std::vector<StrategyInput> apply_plan(std::span<const StrategyInput> ranks, const Plan& plan);

// Rank loads, seconds, of per-rank inputs indexed by rank.
std::vector<double> rank_loads(std::span<const StrategyInput> ranks);

}  // namespace tessera::lb
