// TemperedLB's driver: trials of iterations of inform + transfer, keeping the best proposal
// (seed 003, Algorithm 3).

#include "tessera/lb/tempered_lb.hpp"


#include <algorithm>
#include <cmath>

#include "tempered_rank.hpp"

namespace tessera::lb {

namespace {

using tempered::Shared;
using tempered::TemperedRank;
using Team = comm::Team<TemperedRank>;

// Algorithm 1 for every rank: afterwards each rank that will transfer knows some underloaded ranks.
void inform(Team& team, Shared& shared) {
  team.step([](TemperedRank& self, comm::Communicator&) { self.reset_knowledge(); });
  shared.underloaded = team.allreduce(comm::ReduceOp::sum, [](TemperedRank& self) {
    return std::int64_t{self.underloaded() ? 1 : 0};
  });
  if (shared.options->knowledge == TemperedOptions::Knowledge::complete) {
    team.step([](TemperedRank& self, comm::Communicator& ctx) { self.report_underload(ctx); });
    team.run_until_quiet();
    const auto underloads = team.broadcast(0, [](TemperedRank& self) { return self.take_underloads(); });
    const auto blocks = shared.blocks ? team.broadcast(0, [](TemperedRank& self) { return self.take_underload_blocks(); })
                                      : std::vector<tempered::PeerBlocks>{};
    team.step([&](TemperedRank& self, comm::Communicator&) { self.learn_all(underloads, blocks); });
    return;
  }
  team.step([](TemperedRank& self, comm::Communicator& ctx) { self.inform(ctx); });
  team.run_until_quiet();
  if (!shared.options->deterministic) return;  // forwarded from the handlers, already quiet
  for (int round = 1; round < shared.rounds; ++round) {
    team.step([&](TemperedRank& self, comm::Communicator& ctx) { self.forward_if_reached(ctx, round); });
    team.run_until_quiet();
  }
}

double max_value(Team& team) {
  return team.allreduce(comm::ReduceOp::max, [](TemperedRank& self) { return self.value(); });
}

double imbalance_of(double max, double average) { return average > 0.0 ? max / average - 1.0 : 0.0; }

// Work model on: average work of the current placement (work depends on where objects are).
// The sum is of integers (whole seconds, and the rest in units of 2^-40 s), so it is the same
// whatever order a backend (or MPI) adds the ranks in: plans must not depend on delivery order.
void update_average(Team& team, Shared& shared) {
  if (!shared.modeled) return;
  constexpr double unit = 1099511627776.0;  // 2^40
  const auto total = team.allreduce(comm::ReduceOp::sum, [&](TemperedRank& self) {
    const double v = self.value();
    const double whole = std::floor(v);
    return std::vector<std::int64_t>{static_cast<std::int64_t>(whole), std::llround((v - whole) * unit)};
  });
  shared.average = (static_cast<double>(total[0]) + static_cast<double>(total[1]) / unit) / static_cast<double>(shared.staying);
}

// Work model with beta or gamma != 0: every recorded edge reaches the holders of its ends (and,
// with a node map that groups ranks, the holders learn where the other ends are).
void exchange_edges(Team& team, const Shared& shared) {
  team.step([](TemperedRank& self, comm::Communicator& ctx) { self.send_to_directory(ctx); });
  team.run_until_quiet();
  if (shared.nodes) {
    team.step([](TemperedRank& self, comm::Communicator& ctx) { self.share_locations(ctx); });
    team.run_until_quiet();
  }
  team.step([](TemperedRank& self, comm::Communicator& ctx) { self.forward_edges(ctx); });
  team.run_until_quiet();
  team.step([](TemperedRank& self, comm::Communicator&) { self.attach_edges(); });
}

}  // namespace

TemperedLB::TemperedLB() : TemperedLB(TemperedOptions{}) {}

TemperedLB::TemperedLB(TemperedOptions options, std::string name)
    : options_(options), name_(std::move(name)) {
  options_.validate(name_);
}

Plan TemperedLB::run(comm::Backend& backend, std::span<const StrategyInput> hosted) {
  check_hosted_inputs(backend, hosted);
  Shared shared;
  shared.options = &options_;
  shared.size = backend.size();
  shared.rounds = options_.rounds_for(shared.size);
  if (backend.nodes().grouped()) shared.nodes = &backend.nodes();
  std::size_t next = 0;
  Team team(backend, [&](Rank) { return TemperedRank(shared, hosted[next++]); });
  shared.gossip = team.handler<&TemperedRank::on_gossip>();
  shared.proposal = team.handler<&TemperedRank::on_proposal>();
  shared.returned = team.handler<&TemperedRank::on_returned>();
  shared.plan = team.handler<&TemperedRank::on_plan>();
  shared.underload = team.handler<&TemperedRank::on_underload>();
  shared.turn = team.handler<&TemperedRank::on_turn>();
  shared.directory = team.handler<&TemperedRank::on_directory>();
  shared.edges = team.handler<&TemperedRank::on_edges>();
  shared.locations = team.handler<&TemperedRank::on_locations>();

  shared.modeled = team.allreduce(comm::ReduceOp::max, [](TemperedRank& self) {
    return std::int64_t{self.needs_model() ? 1 : 0};
  }) > 0;
  shared.limited = team.allreduce(comm::ReduceOp::max, [](TemperedRank& self) {
    return std::int64_t{self.has_limit() ? 1 : 0};
  }) > 0;
  if (shared.modeled && options_.transfer == TemperedOptions::Transfer::sequential) {
    throw ArgumentError(name_ + ": transfer=sequential balances load only; the work model (beta, gamma, delta, "
                        "rank_alpha, memory limits) needs transfer=distributed");
  }
  shared.blocks = shared.modeled && (shared.limited || options_.work.delta != 0.0);
  if (shared.modeled && (options_.work.beta != 0.0 || options_.work.gamma != 0.0)) exchange_edges(team, shared);

  const double total = team.allreduce(comm::ReduceOp::sum, [](TemperedRank& self) { return self.load(); });
  shared.staying = staying_ranks(backend, hosted);
  const double average_load = total / static_cast<double>(shared.staying);
  shared.average = average_load;
  update_average(team, shared);
  // Work proportional to load (memory limits only refuse moves; they add no work) has load's
  // lower bound: the work model then stops at it too, instead of running every trial out.
  const bool proportional = !shared.modeled || team.allreduce(comm::ReduceOp::min, [](TemperedRank& self) {
    return std::int64_t{self.work_is_proportional() ? 1 : 0};
  }) > 0;

  report_ = TemperedReport{};
  report_.rounds = shared.rounds;
  const double initial_max = max_value(team);
  report_.initial_imbalance = imbalance_of(initial_max, shared.average);
  // How many ranks carry the maximum (their value is exactly the max reduction's result, one of
  // the values): with patience, an iteration that leaves the maximum where it was but on fewer
  // ranks has made progress, and the next iteration can lower the maximum.
  const std::int64_t initial_at_max = options_.patience == 0 ? 0 : team.allreduce(comm::ReduceOp::sum, [&](TemperedRank& self) {
    return std::int64_t{self.value() == initial_max ? 1 : 0};
  });
  report_.best_imbalance = report_.initial_imbalance;
  if (proportional && average_load > 0.0) {
    const double largest = team.allreduce(comm::ReduceOp::max, [](TemperedRank& self) { return self.largest_object(); });
    report_.lower_bound = std::max(average_load, largest) / average_load - 1.0;
  }
  // Sums in another order can land a hair off the bound: a relative 1e-9 is far below any real gain.
  const auto at_bound = [&](double imbalance) {
    return proportional && imbalance <= report_.lower_bound + 1e-9 * (1.0 + report_.lower_bound);
  };
  report_.stopped_at_bound = at_bound(report_.best_imbalance);
  // With patience, a trial that was still lowering the imbalance when its iterations ran out is
  // not stuck in a local minimum, which is what further trials are for (seed 003, section V-A):
  // another trial then starts only after one that stalled.
  bool stalled = true;
  for (int trial = 1; trial <= options_.trials && !report_.stopped_at_bound && stalled; ++trial) {
    stalled = options_.patience == 0;
    team.step([](TemperedRank& self, comm::Communicator&) { self.restart_trial(); });
    double trial_best = report_.initial_imbalance;
    std::int64_t trial_at_max = initial_at_max;
    int stale = 0;  // iterations in a row that lowered nothing
    for (int iteration = 1; iteration <= options_.iters; ++iteration) {
      shared.trial = static_cast<std::uint64_t>(trial);
      shared.iteration = static_cast<std::uint64_t>(iteration);
      update_average(team, shared);
      inform(team, shared);
      if (options_.transfer == TemperedOptions::Transfer::sequential) {
        team.step_on(0, [](TemperedRank& self, comm::Communicator& ctx) { self.take_turn(ctx, {}); });
      } else {
        team.step([](TemperedRank& self, comm::Communicator& ctx) { self.propose(ctx); });
      }
      team.run_until_quiet();
      team.step([](TemperedRank& self, comm::Communicator& ctx) { self.accept_arrivals(ctx); });
      if (options_.transfer == TemperedOptions::Transfer::distributed &&
          (options_.admit == TemperedOptions::Admit::receiver || shared.modeled || options_.swaps > 0)) {
        team.run_until_quiet();
        team.step([](TemperedRank& self, comm::Communicator&) { self.take_returns(); });
      }

      update_average(team, shared);
      const double max = max_value(team);
      const double now = imbalance_of(max, shared.average);
      const auto counts = team.allreduce(comm::ReduceOp::sum, [max](TemperedRank& self) {
        const tempered::Counts& c = self.counts();
        return std::vector<std::int64_t>{c.transfers, c.rejected, c.rejected_memory, c.swaps, self.value() == max ? 1 : 0};
      });
      report_.iterations.push_back(TemperedIteration{trial, iteration, counts[0], counts[1], counts[2], now, counts[3]});
      // Strictly lower only: the starting placement wins ties, so nothing moves for nothing.
      if (now < report_.best_imbalance) {
        report_.best_imbalance = now;
        report_.best_trial = trial;
        report_.best_iteration = iteration;
        team.step([](TemperedRank& self, comm::Communicator&) { self.remember_best(); });
      }
      if (at_bound(report_.best_imbalance)) {
        report_.stopped_at_bound = true;
        break;
      }
      const bool progress = now < trial_best || (now == trial_best && counts[4] < trial_at_max);
      stale = progress ? 0 : stale + 1;
      if (progress) {
        trial_best = now;
        trial_at_max = counts[4];
      }
      if (options_.patience > 0 && stale >= options_.patience) {
        stalled = true;
        break;
      }
    }
  }
  team.step([](TemperedRank& self, comm::Communicator& ctx) { self.send_plan(ctx); });
  team.run_until_quiet();

  Plan plan;
  team.step([&](TemperedRank& self, comm::Communicator&) {
    plan.migrations.insert(plan.migrations.end(), self.plan().begin(), self.plan().end());
  });
  plan.canonicalize();
  return plan;
}

}  // namespace tessera::lb
