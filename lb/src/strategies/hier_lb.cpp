#include "tessera/lb/hier_lb.hpp"

#include <algorithm>
#include <limits>

#include "plan_messages.hpp"

namespace tessera::lb {

namespace {

using detail::Bin;
using detail::Descriptor;
using detail::MoveOrder;
using detail::ShedReport;

constexpr Rank root = 0;

struct TaskList {
  std::vector<Descriptor> tasks;
  template <class A>
  void serialize(A& ar) {
    ar(tasks);
  }
};

// Agreed by every rank before the tree sweep starts.
struct Shared {
  double shed_above = 0.0;   // C x average
  double serve_below = 0.0;  // D x average
  const WorkModel* work = nullptr;
  comm::Handler<ShedReport> up;
  comm::Handler<TaskList> down;
  comm::Handler<MoveOrder> moves;
};

struct HierRank {
  const StrategyInput* input = nullptr;
  const Shared* shared = nullptr;
  Rank parent = no_rank;
  Rank first_child = 0;
  std::size_t children = 0;
  std::size_t reported = 0;
  bool shed = false;  // this rank gave objects away
  std::vector<Bin> bins;  // [0]: this rank itself; [1 + i]: subtree of child i
  std::vector<Descriptor> pool;
  std::vector<std::vector<Descriptor>> assigned;  // per bin, until the down sweep passes
  std::vector<Migration> plan;

  void start(comm::Context& ctx) {
    double remaining = input->load();
    pool = detail::shed_smallest(input->objects, ctx.rank(), remaining, shared->shed_above);
    shed = !pool.empty();
    bins[0] = Bin{ctx.rank(), remaining, 1, detail::rank_headroom(*shared->work, *input)};
    if (children == 0) finish_up(ctx);
  }

  void on_up(comm::Context& ctx, const ShedReport& report) {
    const std::size_t bin = 1 + static_cast<std::size_t>(ctx.source() - first_child);
    bins[bin] = Bin{ctx.source(), report.remaining, report.ranks, report.headroom};
    pool.insert(pool.end(), report.tasks.begin(), report.tasks.end());
    if (++reported == children) finish_up(ctx);
  }

  void finish_up(comm::Context& ctx) {
    if (ctx.rank() == root) {
      distribute(ctx, std::move(pool));
      return;
    }
    // A rank that shed is not underloaded: were it a candidate here, the objects it just shed
    // would come straight back, since shedding stops at or below the serving threshold.
    std::vector<Bin> candidates(bins.begin() + (shed ? 1 : 0), bins.end());
    for (const auto& a : detail::assign_largest_to_least(pool, candidates, shared->serve_below)) {
      const std::size_t bin = a.bin + (shed ? 1 : 0);
      bins[bin].load += a.task.load;
      bins[bin].headroom -= a.task.memory;
      assigned[bin].push_back(a.task);
    }
    ShedReport report;
    report.ranks = 0;
    report.headroom = -std::numeric_limits<double>::infinity();
    for (const auto& bin : bins) {
      report.remaining += bin.load;
      report.ranks += bin.size;
      report.headroom = std::max(report.headroom, bin.headroom);
    }
    report.tasks = std::move(pool);
    ctx.send(parent, shared->up, report);
  }

  void on_down(comm::Context& ctx, const TaskList& list) { distribute(ctx, list.tasks); }

  void distribute(comm::Context& ctx, std::vector<Descriptor> tasks) {
    keep(detail::assign_largest_to_least(tasks, bins));
    for (std::size_t i = 0; i < children; ++i) {
      ctx.send(first_child + static_cast<Rank>(i), shared->down, TaskList{std::move(assigned[1 + i])});
    }
    // What stays here has arrived: tell each source rank to send its object to this rank.
    std::vector<detail::Assignment> arrived;
    for (const auto& task : assigned[0]) arrived.push_back(detail::Assignment{task, 0});
    detail::order_moves(ctx, shared->moves, arrived, [&](std::size_t) { return ctx.rank(); });
  }

  void on_moves(comm::Context&, const MoveOrder& order) {
    plan.insert(plan.end(), order.moves.begin(), order.moves.end());
  }

 private:
  void keep(const std::vector<detail::Assignment>& chosen) {
    for (const auto& a : chosen) assigned[a.bin].push_back(a.task);
  }
};

}  // namespace

HierLB::HierLB() : HierLB(Options{}) {}

HierLB::HierLB(Options options) : options_(options) {
  if (!(options_.c >= 1.0)) throw ArgumentError("HierLB: c must be >= 1");
  if (!(options_.d >= 1.0)) throw ArgumentError("HierLB: d must be >= 1");
  if (options_.branching < 2) throw ArgumentError("HierLB: branching must be >= 2");
}

std::vector<KeySpec> HierLB::keys() {
  return {
      real_key("c", "1.003", "ranks above c x average load shed their smallest objects (seed 000, Algorithm 2)", 1.0),
      real_key("d", "1.003", "on the way up, a subtree is served while its average load is below d x average", 1.0),
      integer_key("branching", "3", "arity of the rank tree", 2, 1 << 20),
      WorkModel::keys().back(),  // memory_limit
  };
}

HierLB HierLB::from_args(const Args& args) {
  Options o{args.real("c"), args.real("d"), static_cast<int>(args.integer("branching")), {}};
  o.work.memory_limit = args.real("memory_limit");
  return HierLB(o);
}

Plan HierLB::run(comm::Backend& backend, std::span<const StrategyInput> hosted) {
  check_hosted_inputs(backend, hosted);
  const Rank ranks = backend.size();
  const auto n = static_cast<std::int64_t>(options_.branching);
  Shared shared;
  shared.work = &options_.work;
  std::size_t next = 0;
  comm::Team<HierRank> team(backend, [&](Rank r) {
    HierRank self;
    self.input = &hosted[next++];
    self.shared = &shared;
    self.parent = r == root ? no_rank : static_cast<Rank>((r - 1) / n);
    const std::int64_t first = std::int64_t{r} * n + 1;
    self.first_child = static_cast<Rank>(std::min<std::int64_t>(first, ranks));
    self.children = static_cast<std::size_t>(std::clamp<std::int64_t>(ranks - first, 0, n));
    self.bins.resize(1 + self.children);
    self.assigned.resize(1 + self.children);
    return self;
  });
  shared.up = team.handler<&HierRank::on_up>();
  shared.down = team.handler<&HierRank::on_down>();
  shared.moves = team.handler<&HierRank::on_moves>();

  const double total = team.allreduce(comm::ReduceOp::sum, [](HierRank& self) { return self.input->load(); });
  shared.shed_above = options_.c * total / ranks;
  shared.serve_below = options_.d * total / ranks;

  team.step([](HierRank& self, comm::Context& ctx) { self.start(ctx); });
  team.run_until_quiet();
  return detail::collect_plan(team);
}

}  // namespace tessera::lb
