// Two tessera::Contexts side by side in one process, one per communicator:
// context A on MPI_COMM_WORLD balancing with RotateLB every phase, context B on a communicator
// whose ranks are numbered in reverse, not balancing. Each runs its own collection through
// phases, alternating; handlers receive their collection's proxy and an object group's proxy as
// message arguments and must bind both to the runtime delivering the message (the ids are the
// same in both runtimes, so binding to the other one is caught); every count at the end is exact. Each then runs a task
// collection from its own steal flags (A random, B the default lifeline) and its steal service
// counts its own tasks only.
#include <tessera/tessera.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <string>
#include <vector>

namespace {

using namespace tessera::collections;

// One per rank and per context; `name` tells the two contexts' instances apart.
struct Tally {
  explicit Tally(char n) : name(n) {}
  char name;
  std::int64_t hits = 0;
};

struct Cell : Element<Cell, 1> {
  std::int64_t visits = 0;
  std::int64_t wrong_proxy = 0;
  void visit(CollectionProxy<Cell> self, tessera::ObjGroup<Tally> tally, char context) {
    ++visits;
    // Both proxies were bound on arrival, by id, to the runtime that decoded the message.
    if (&self.manager() != &proxy().manager()) ++wrong_proxy;
    Tally* local = tally.local();
    if (local == nullptr || local->name != context) ++wrong_proxy;
    else ++local->hits;
  }
  template <class Archive>
  void serialize(Archive& archive) {
    archive(visits, wrong_proxy);
  }
};

// A binary tree of tasks: one of depth d spawns two of depth d - 1, so 2^(d+1) - 1 tasks run.
struct Subtree {
  std::int32_t depth = 0;
};

std::int64_t run_tree(tessera::Context& ctx, std::int32_t depth) {
  auto tasks = ctx.task_collection<Subtree>([](const Subtree& t, tessera::collections::steal::Spawner<Subtree>& s) {
    if (t.depth > 0) {
      s.spawn(Subtree{t.depth - 1});
      s.spawn(Subtree{t.depth - 1});
    }
  });
  if (ctx.runtime().rank() == 0) tasks.seed(Subtree{depth});
  return static_cast<std::int64_t>(tasks.process().total().tasks_executed);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0;
  int world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm reversed = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - 1 - world_rank, &reversed);
  constexpr std::int64_t kCellsA = 20;
  constexpr std::int64_t kCellsB = 13;
  constexpr std::int64_t kPhases = 5;
  int failures = 0;
  {
    tessera::Context a({argv[0], "--tessera_lb_name=RotateLB", "--tessera_steal_policy=random"}, MPI_COMM_WORLD);
    tessera::Context b({argv[0]}, reversed);
    if (b.runtime().rank() != world_size - 1 - world_rank) ++failures;
    auto cells_a = a.make_collection<Cell>(Index1D{kCellsA});
    auto cells_b = b.make_collection<Cell>(Index1D{kCellsB});
    auto tally_a = tessera::make_objgroup<Tally>(a.runtime(), 'A');
    auto tally_b = tessera::make_objgroup<Tally>(b.runtime(), 'B');
    if (tally_a.id() != tally_b.id()) ++failures;  // the same ids: a proxy bound wrongly is seen
    std::uint64_t migrations_a = 0;
    for (std::int64_t phase = 0; phase < kPhases; ++phase) {
      if (a.runtime().rank() == 0) cells_a.broadcast_from_this_rank<&Cell::visit>(cells_a, tally_a, 'A');
      a.phase_end();
      if (a.lb().last_report()) migrations_a += a.lb().last_report()->migrations;
      if (b.runtime().rank() == 0) cells_b.broadcast_from_this_rank<&Cell::visit>(cells_b, tally_b, 'B');
      b.phase_end();
      if (b.lb().last_report()) ++failures;  // B has no balancer
    }
    auto sum = [](const CollectionProxy<Cell>& cells, auto field) {
      return cells.allreduce(std::int64_t{0}, tessera::op::sum{}, [field](Cell& c) { return c.*field; });
    };
    const std::int64_t visits_a = sum(cells_a, &Cell::visits);
    const std::int64_t wrong_a = sum(cells_a, &Cell::wrong_proxy);
    const std::int64_t visits_b = sum(cells_b, &Cell::visits);
    const std::int64_t wrong_b = sum(cells_b, &Cell::wrong_proxy);
    const std::int64_t hits_a = a.runtime().collectives().allreduce(tally_a.local()->hits, tessera::op::sum{});
    const std::int64_t hits_b = b.runtime().collectives().allreduce(tally_b.local()->hits, tessera::op::sum{});
    if (visits_a != kCellsA * kPhases || visits_b != kCellsB * kPhases || wrong_a != 0 || wrong_b != 0) ++failures;
    if (hits_a != visits_a || hits_b != visits_b) ++failures;
    if (world_size > 1 && migrations_a == 0) ++failures;
    if (a.runtime().rank() == 0)
      fmt::print("context A: {} visits (expected {}), {} group hits, {} migrations, {} proxies bound to the wrong "
                 "runtime; context B: {} visits (expected {}), {} group hits, {} wrong\n",
                 visits_a, kCellsA * kPhases, hits_a, migrations_a, wrong_a, visits_b, kCellsB * kPhases, hits_b, wrong_b);
    cells_b.destroy();
    cells_a.destroy();

    const std::int64_t tasks_a = run_tree(a, 6);
    const std::int64_t tasks_b = run_tree(b, 5);
    using tessera::collections::steal::Policy;
    const bool steal_ok = tasks_a == 127 && tasks_b == 63 && a.steal().iterations() == 1 &&
                          b.steal().iterations() == 1 && a.steal().totals().tasks_executed == 127 &&
                          b.steal().totals().tasks_executed == 63 && a.steal().options().policy == Policy::random &&
                          b.steal().options().policy == Policy::lifeline;
    if (!steal_ok) ++failures;
    if (a.runtime().rank() == 0)
      fmt::print("task collections: A ran {} tasks under {} (expected 127 under random), B {} under {} "
                 "(expected 63 under lifeline); services counted {} and {}\n",
                 tasks_a, to_string(a.steal().options().policy), tasks_b, to_string(b.steal().options().policy),
                 a.steal().totals().tasks_executed, b.steal().totals().tasks_executed);
  }
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0) fmt::print("two contexts: {}\n", failures == 0 ? "passed" : "FAILED");
  MPI_Comm_free(&reversed);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
