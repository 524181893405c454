// tessera-demo: a tour of the runtime on any number of ranks: point-to-point active messages, a
// broadcast, an object group, reductions and an epoch, each with what it did and its check.
// It starts through tessera::Context like every app, so every --tessera_ flag works here too.
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

namespace {

int hellos = 0;
void hello(int from, std::string text) {
  ++hellos;
  if (from < 0 || text.empty()) tessera::fatal("bad greeting");
}

struct Counter {
  long total = 0;
  void add(long amount) { total += amount; }
};

long relayed = 0;
void relay(tessera::Runtime& rt, int hops_left) {
  ++relayed;
  if (hops_left > 0) rt.send<&relay>((rt.rank() + 1) % rt.size(), hops_left - 1);
}

}  // namespace

int main(int argc, char** argv) {
  tessera::Context ctx(argc, argv);
  if (ctx.help_shown()) return 0;
  tessera::Runtime& rt = ctx.runtime();
  tessera::Termination& termination = ctx.termination();
  const int p = rt.size();
  auto say = [&](const std::string& line) {
    if (rt.rank() == 0) fmt::print("{}\n", line);
  };
  say(fmt::format("tessera-demo on {} ranks", p));

  // 1. Every rank greets every rank; a collective epoch ends when all greetings were handled.
  termination.run_in_epoch_collective([&] {
    for (int dest = 0; dest < p; ++dest) rt.send<&hello>(dest, rt.rank(), std::string("hello from ") + std::to_string(rt.rank()));
  });
  const int all_hellos = rt.collectives().allreduce(hellos, tessera::op::sum{});
  say(fmt::format("sends:      {} greetings handled (expected {})", all_hellos, p * p));

  // 2. A broadcast to an object group: every rank's Counter gets every rank's amount once.
  auto counters = tessera::make_objgroup<Counter>(rt);
  termination.run_in_epoch_collective([&] { counters.broadcast_from_this_rank<&Counter::add>(static_cast<long>(rt.rank() + 1)); });
  const long expected_each = static_cast<long>(p) * (p + 1) / 2;
  const long min_total = rt.collectives().allreduce(counters.local()->total, tessera::op::min{});
  say(fmt::format("broadcast:  every Counter holds at least {} (expected {} on each)", min_total, expected_each));

  // 3. A rooted epoch: rank 0 starts a token that travels 10 times around the ring.
  if (rt.rank() == 0) termination.run_in_epoch_rooted([&] { rt.send<&relay>(0, 10 * p - 1); });
  rt.collectives().barrier();  // only the root knows when a rooted epoch has ended
  const long hops = rt.collectives().allreduce(relayed, tessera::op::sum{});
  say(fmt::format("epoch:      token made {} hops (expected {})", hops, 10 * p));

  // 4. Reductions of values and vectors.
  const std::vector<double> mine{1.0 * rt.rank(), 1.0};
  const auto sums = rt.collectives().allreduce(mine, tessera::op::sum{});
  say(fmt::format("reduce:     sum of ranks {} (expected {}), count {}", sums[0], p * (p - 1) / 2.0, sums[1]));

  const bool ok = all_hellos == p * p && min_total == expected_each && hops == 10 * p && sums[1] == p;
  say(ok ? "demo: all checks passed" : "demo: CHECK FAILED");
  const tessera::FinalizeStatus finished = ctx.finalize();  // collective: LB data, report, advice
  if (!finished && finished.rank == rt.rank()) fmt::print(stderr, "tessera-demo: {}\n", finished.message);
  return ok && finished ? 0 : 1;
}
