#pragma once
// Messages and rank state pieces the built-in strategies share.

#include <limits>
#include <vector>

#include "greedy_assign.hpp"
#include "tessera/lb/comm.hpp"

namespace tessera::lb::detail {

// Objects offered for migration by one rank (or a subtree), with the load left behind.
struct ShedReport {
  double remaining = 0.0;       // seconds still on the sender (its subtree for HierLB)
  std::int64_t ranks = 1;       // ranks the report speaks for
  std::vector<Descriptor> tasks;
  double headroom = std::numeric_limits<double>::infinity();  // bytes; see Bin::headroom
  template <class A>
  void serialize(A& ar) {
    ar(remaining, ranks, tasks, headroom);
  }
};

// Tells a source rank where some of its objects go.
struct MoveOrder {
  std::vector<Migration> moves;
  template <class A>
  void serialize(A& ar) {
    ar(moves);
  }
};

// Collects each hosted rank's share of a plan after the final run_until_quiet.
template <class Local>
Plan collect_plan(comm::Team<Local>& team) {
  Plan plan;
  team.step([&](Local& self, comm::Communicator&) {
    plan.migrations.insert(plan.migrations.end(), self.plan.begin(), self.plan.end());
  });
  plan.canonicalize();
  return plan;
}

// Sends every source rank the moves of its objects among `assigned` whose destination differs.
// `destination(i)` gives the rank chosen for assigned[i].
template <class Destination>
void order_moves(comm::Communicator& ctx, comm::Handler<MoveOrder> handler,
                 const std::vector<Assignment>& assigned, Destination&& destination) {
  std::vector<std::pair<Rank, Migration>> moves;
  for (std::size_t i = 0; i < assigned.size(); ++i) {
    const Rank to = destination(i);
    const Descriptor& task = assigned[i].task;
    if (to != task.from) moves.emplace_back(task.from, Migration{task.id, task.from, to});
  }
  std::stable_sort(moves.begin(), moves.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < moves.size();) {
    MoveOrder order;
    const Rank source = moves[i].first;
    for (; i < moves.size() && moves[i].first == source; ++i) order.moves.push_back(moves[i].second);
    ctx.send(source, handler, order);
  }
}

}  // namespace tessera::lb::detail
