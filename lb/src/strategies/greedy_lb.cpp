#include "tessera/lb/greedy_lb.hpp"

#include <algorithm>
#include <limits>

#include "plan_messages.hpp"

namespace tessera::lb {

namespace {

using detail::Descriptor;
using detail::MoveOrder;
using detail::ShedReport;

struct GreedyRank {
  const StrategyInput* input = nullptr;
  std::vector<double> loads;     // rank 0: remaining load of every rank
  std::vector<double> headrooms;  // rank 0: memory headroom of every rank, bytes
  std::vector<Descriptor> pool;  // rank 0: every shed object
  std::vector<Migration> plan;   // moves of this rank's objects

  void on_report(comm::Communicator& ctx, const ShedReport& report) {
    loads[static_cast<std::size_t>(ctx.source())] = report.remaining;
    headrooms[static_cast<std::size_t>(ctx.source())] = report.headroom;
    pool.insert(pool.end(), report.tasks.begin(), report.tasks.end());
  }
  void on_moves(comm::Communicator&, const MoveOrder& order) {
    plan.insert(plan.end(), order.moves.begin(), order.moves.end());
  }
};

constexpr Rank root = 0;

}  // namespace

GreedyLB::GreedyLB() : GreedyLB(Options{}) {}

GreedyLB::GreedyLB(Options options) : options_(std::move(options)) {
  if (!(options_.c >= 1.0)) throw ArgumentError("GreedyLB: c must be >= 1");
}

std::vector<KeySpec> GreedyLB::keys() {
  return {
      real_key("c", "1.003", "ranks above c x average load shed their smallest objects (seed 000, Algorithm 1)", 1.0),
      choice_key("mode", "refine", "refine: Algorithm 1; full: reassign every migratable object, longest first (LPT)",
                 {"refine", "full"}),
      WorkModel::keys().back(),  // memory_limit
  };
}

GreedyLB GreedyLB::from_args(const Args& args) {
  Options o{args.real("c"), args.text("mode") == "full" ? Mode::full : Mode::refine, {}};
  o.work.memory_limit = args.real("memory_limit");
  return GreedyLB(o);
}

Plan GreedyLB::run(comm::Backend& backend, std::span<const StrategyInput> hosted) {
  check_hosted_inputs(backend, hosted);
  const Rank ranks = backend.size();
  std::size_t next = 0;
  comm::Team<GreedyRank> team(backend, [&](Rank r) {
    GreedyRank self;
    self.input = &hosted[next++];
    if (r == root) self.loads.assign(static_cast<std::size_t>(ranks), 0.0);
    if (r == root) self.headrooms.assign(static_cast<std::size_t>(ranks), 0.0);
    return self;
  });
  const auto report = team.handler<&GreedyRank::on_report>();
  const auto moves = team.handler<&GreedyRank::on_moves>();

  const double total = team.allreduce(comm::ReduceOp::sum, [](GreedyRank& self) { return self.input->load(); });
  const double threshold = options_.mode == Mode::full ? -std::numeric_limits<double>::infinity()
                                                       : options_.c * total / staying_ranks(backend, hosted);

  team.step([&](GreedyRank& self, comm::Communicator& ctx) {
    ShedReport shed;
    shed.remaining = self.input->load();
    // A leaving rank gives everything away and, with no headroom, is never given anything.
    const bool leaving = self.input->leaving;
    shed.tasks = detail::shed_smallest(self.input->objects, ctx.rank(), shed.remaining,
                                       leaving ? -std::numeric_limits<double>::infinity() : threshold);
    shed.headroom = leaving ? -std::numeric_limits<double>::infinity() : detail::rank_headroom(options_.work, *self.input);
    ctx.send(root, report, shed);
  });
  team.run_until_quiet();

  team.step_on(root, [&](GreedyRank& self, comm::Communicator& ctx) {
    std::vector<detail::Bin> bins(static_cast<std::size_t>(ranks));
    for (Rank r = 0; r < ranks; ++r) bins[static_cast<std::size_t>(r)] = detail::Bin{r, self.loads[static_cast<std::size_t>(r)], 1, self.headrooms[static_cast<std::size_t>(r)]};
    const auto assigned = detail::assign_largest_to_least(self.pool, bins);
    detail::order_moves(ctx, moves, assigned, [&](std::size_t i) { return bins[assigned[i].bin].rank; });
  });
  team.run_until_quiet();
  return detail::collect_plan(team);
}

}  // namespace tessera::lb
