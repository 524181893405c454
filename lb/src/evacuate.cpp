#include "tessera/lb/evacuate.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "strategies/plan_messages.hpp"

namespace tessera::lb {

namespace {

using detail::Descriptor;
using detail::MoveOrder;
using detail::ShedReport;

constexpr Rank root = 0;

// Objects a leaving rank hands to one staying rank, with the edges of its input that name them.
struct Arrivals {
  std::vector<LbObject> objects;
  std::vector<LbEdge> edges;
  template <class A>
  void serialize(A& ar) {
    ar(objects, edges);
  }
};

struct EvacuationRank {
  StrategyInput input;
  comm::Handler<Arrivals> arrivals;
  std::vector<double> loads;      // rank 0: every rank's load
  std::vector<double> headrooms;  // rank 0: -inf for a leaving rank, +inf for a staying one
  std::vector<Descriptor> pool;   // rank 0: every evacuated object
  std::vector<Migration> plan;
  std::vector<Migration> arrived;  // the moves that brought objects here

  void on_report(comm::Communicator& ctx, const ShedReport& report) {
    loads[static_cast<std::size_t>(ctx.source())] = report.remaining;
    headrooms[static_cast<std::size_t>(ctx.source())] = report.headroom;
    pool.insert(pool.end(), report.tasks.begin(), report.tasks.end());
  }

  // Rank 0 said where this leaving rank's objects go: send each with its edges.
  void on_moves(comm::Communicator& ctx, const MoveOrder& order) {
    std::unordered_map<ObjectId, Rank, ObjectIdHash> to;
    for (const Migration& m : order.moves) to.emplace(m.object, m.to);
    std::map<Rank, Arrivals> out;
    std::vector<LbObject> kept;
    for (LbObject& o : input.objects) {
      const auto it = to.find(o.id);
      if (it == to.end()) kept.push_back(o);
      else out[it->second].objects.push_back(o);
    }
    input.objects = std::move(kept);
    // An edge goes with its sending end when that moves, else with its receiving end.
    std::vector<LbEdge> edges;
    for (const LbEdge& e : input.edges) {
      auto it = to.find(e.from);
      if (it == to.end()) it = to.find(e.to);
      if (it == to.end()) edges.push_back(e);
      else out[it->second].edges.push_back(e);
    }
    input.edges = std::move(edges);
    for (const auto& [dest, batch] : out) ctx.send(dest, arrivals, batch);
    plan.insert(plan.end(), order.moves.begin(), order.moves.end());
  }

  void on_arrivals(comm::Communicator& ctx, const Arrivals& batch) {
    for (const LbObject& o : batch.objects) arrived.push_back(Migration{o.id, ctx.source(), ctx.rank()});
    input.objects.insert(input.objects.end(), batch.objects.begin(), batch.objects.end());
    input.edges.insert(input.edges.end(), batch.edges.begin(), batch.edges.end());
  }
};

struct ComposeRank {
  std::unordered_map<ObjectId, Rank, ObjectIdHash> arrived;  // evacuated here: object -> its leaving rank
  std::vector<Migration> plan;  // the evacuation's moves of this rank's objects, then the final plan

  // The strategy's moves of objects that arrived by evacuation, sent back to the rank they left.
  void on_onward(comm::Communicator&, const MoveOrder& onward) {
    for (const Migration& next : onward.moves) {
      const auto it = std::find_if(plan.begin(), plan.end(), [&](const Migration& m) { return m.object == next.object; });
      if (it != plan.end()) it->to = next.to;
    }
  }
};

}  // namespace

Evacuation evacuate(comm::Backend& backend, std::span<const StrategyInput> hosted) {
  check_hosted_inputs(backend, hosted);
  const Rank ranks = backend.size();
  std::size_t next = 0;
  comm::Team<EvacuationRank> team(backend, [&](Rank r) {
    EvacuationRank self;
    self.input = hosted[next++];
    if (r == root) self.loads.assign(static_cast<std::size_t>(ranks), 0.0);
    if (r == root) self.headrooms.assign(static_cast<std::size_t>(ranks), 0.0);
    return self;
  });
  const auto report = team.handler<&EvacuationRank::on_report>();
  const auto moves = team.handler<&EvacuationRank::on_moves>();
  const auto arrivals = team.handler<&EvacuationRank::on_arrivals>();
  team.step([&](EvacuationRank& self, comm::Communicator&) { self.arrivals = arrivals; });

  const auto staying = team.allreduce(comm::ReduceOp::sum, [](EvacuationRank& self) {
    return std::int64_t{self.input.leaving ? 0 : 1};
  });
  const auto disagree = team.allreduce(comm::ReduceOp::max, [&](EvacuationRank& self) {
    return std::int64_t{self.input.staying != staying ? 1 : 0};
  });
  if (staying == 0) throw std::invalid_argument("shrink: every rank leaves (expected at least one to stay)");
  if (disagree != 0) {
    throw std::invalid_argument("shrink: an input's staying count is not " + std::to_string(staying) +
                                ", the number of ranks not leaving");
  }

  constexpr double inf = std::numeric_limits<double>::infinity();
  team.step([&](EvacuationRank& self, comm::Communicator& ctx) {
    ShedReport shed;
    shed.remaining = self.input.load();
    if (self.input.leaving) shed.tasks = detail::shed_smallest(self.input.objects, ctx.rank(), shed.remaining, -inf);
    shed.headroom = self.input.leaving ? -inf : inf;
    ctx.send(root, report, shed);
  });
  team.run_until_quiet();
  team.step_on(root, [&](EvacuationRank& self, comm::Communicator& ctx) {
    std::vector<detail::Bin> bins(static_cast<std::size_t>(ranks));
    for (Rank r = 0; r < ranks; ++r) {
      const auto i = static_cast<std::size_t>(r);
      bins[i] = detail::Bin{r, self.loads[i], 1, self.headrooms[i]};
    }
    const auto assigned = detail::assign_largest_to_least(self.pool, bins);
    detail::order_moves(ctx, moves, assigned, [&](std::size_t i) { return bins[assigned[i].bin].rank; });
  });
  team.run_until_quiet();

  Evacuation out;
  team.step([&](EvacuationRank& self, comm::Communicator&) {
    out.hosted.push_back(std::move(self.input));
    out.arrived.push_back(std::move(self.arrived));
    out.plan.migrations.insert(out.plan.migrations.end(), self.plan.begin(), self.plan.end());
  });
  out.plan.canonicalize();
  return out;
}

Plan run_shrinking(Strategy& strategy, comm::Backend& backend, std::span<const StrategyInput> hosted) {
  const Evacuation evacuation = evacuate(backend, hosted);
  const Plan placed = strategy.run(backend, evacuation.hosted);

  // Each hosted rank: the evacuation's moves of its objects, and which objects reached it by one.
  std::unordered_map<Rank, std::vector<Migration>> evacuated_from;
  for (const Migration& m : evacuation.plan.migrations) evacuated_from[m.from].push_back(m);
  std::size_t next = 0;
  comm::Team<ComposeRank> team(backend, [&](Rank r) {
    ComposeRank self;
    self.plan = std::move(evacuated_from[r]);
    for (const Migration& m : evacuation.arrived[next]) self.arrived.emplace(m.object, m.from);
    ++next;
    return self;
  });
  const auto onward = team.handler<&ComposeRank::on_onward>();
  // A strategy's move of an evacuated object is the leaving rank's to make, to the final rank.
  team.step([&](ComposeRank& self, comm::Communicator& ctx) {
    std::map<Rank, MoveOrder> out;
    for (const Migration& m : placed.migrations) {
      if (m.from != ctx.rank()) continue;
      const auto it = self.arrived.find(m.object);
      if (it == self.arrived.end()) self.plan.push_back(m);
      else out[it->second].moves.push_back(Migration{m.object, it->second, m.to});
    }
    for (const auto& [leaving, batch] : out) ctx.send(leaving, onward, batch);
  });
  team.run_until_quiet();
  Plan plan;
  team.step([&](ComposeRank& self, comm::Communicator&) {
    for (const Migration& m : self.plan)
      if (m.from != m.to) plan.migrations.push_back(m);
  });
  plan.canonicalize();
  return plan;
}

}  // namespace tessera::lb
