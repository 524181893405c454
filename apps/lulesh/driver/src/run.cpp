// The cycle loop of tessera-lulesh (run.hpp): one reduction, one broadcast and one phase per cycle.
#include "tessera/lulesh/driver/run.hpp"

#include "tessera/lulesh/driver/color.hpp"
#include "tessera/lulesh/driver/verification.hpp"

#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace tessera::lulesh {

namespace {

using collections::Index3D;

double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// What a checkpoint stores beside the colors: the cycles done and the problem they ran, so a
// restart continues the same problem on the same domains.
struct CheckpointState {
  std::int64_t cycles = 0;
  std::int32_t edge = 0;
  std::int32_t domains_per_side = 0;
  std::int32_t regions = 0;
  std::int32_t balance = 0;
  std::int32_t cost = 0;
};

CheckpointState starting_state(const Options& options, const Context& ctx) {
  const Problem& p = options.problem;
  const CheckpointState fresh{0, p.edge, p.domains_per_side, p.regions, p.balance, p.cost};
  if (!ctx.restarted()) return fresh;
  const std::string where = ctx.restart_dir().string();
  if (ctx.restart_state().size() != sizeof(CheckpointState))
    throw RunError(fmt::format("--restart {}: the checkpoint holds {} bytes of application state, expected {} "
                               "(not written by tessera-lulesh)",
                               where, ctx.restart_state().size(), sizeof(CheckpointState)));
  CheckpointState state;
  std::memcpy(&state, ctx.restart_state().data(), sizeof state);
  const auto domains = [](std::int64_t side) { return side * side * side; };
  if (state.domains_per_side != p.domains_per_side)
    throw RunError(fmt::format("--restart {}: the checkpoint holds {} domains; this run asks for --domains {} "
                               "(expected the same domain count)",
                               where, domains(state.domains_per_side), domains(p.domains_per_side)));
  if (state.edge != p.edge || state.regions != p.regions || state.balance != p.balance || state.cost != p.cost)
    throw RunError(fmt::format("--restart {}: the checkpoint ran -s {} -r {} -b {} -c {}; this run asks for "
                               "-s {} -r {} -b {} -c {} (expected the same problem)",
                               where, state.edge, state.regions, state.balance, state.cost, p.edge, p.regions,
                               p.balance, p.cost));
  return state;
}

// One allreduce per cycle: the original's minimum of dt, and what the driver needs besides.
struct CycleSums {
  Real bound = 1.0e20;      // min of dt_bound(): the next cycle's constraint
  Real time = 0;            // max of time() (equal on every domain)
  Real deltatime = 0;       // max of deltatime() (equal on every domain)
  std::int64_t cycle = 0;   // max of cycle() (equal on every domain)
  std::int32_t fault = 0;   // max of fault()
  std::int32_t running = 0; // 1 if a domain has cycles left
  double max_load = 0;      // of the last phase: the busiest rank's color load (s)
  double sum_load = 0;      // of the last phase: every rank's color load (s)
};

CycleSums combine(CycleSums a, const CycleSums& b) {
  a.bound = std::min(a.bound, b.bound);
  a.time = std::max(a.time, b.time);
  a.deltatime = std::max(a.deltatime, b.deltatime);
  a.cycle = std::max(a.cycle, b.cycle);
  a.fault = std::max(a.fault, b.fault);
  a.running = std::max(a.running, b.running);
  a.max_load = std::max(a.max_load, b.max_load);
  a.sum_load += b.sum_load;
  return a;
}

CycleSums this_rank(const collections::CollectionProxy<Color>& colors, std::int64_t max_cycles, double load) {
  CycleSums mine;
  colors.manager().for_each_local([&](const Color& c) {
    const Domain& d = c.domain();
    mine.bound = std::min(mine.bound, d.dt_bound());
    mine.time = std::max(mine.time, d.time());
    mine.deltatime = std::max(mine.deltatime, d.deltatime());
    mine.cycle = std::max(mine.cycle, d.cycle());
    mine.fault = std::max(mine.fault, static_cast<std::int32_t>(d.fault()));
    if (!d.finished(max_cycles)) mine.running = 1;
  });
  mine.max_load = load;
  mine.sum_load = load;
  return mine;
}

std::string fault_message(std::int32_t fault, std::int64_t cycle) {
  return static_cast<Fault>(fault) == Fault::volume
             ? fmt::format("cycle {}: an element's volume fell to zero or below (LULESH's VolumeError)", cycle)
             : fmt::format("cycle {}: artificial viscosity above qstop (LULESH's QStopError)", cycle);
}

}  // namespace

Result run(const Options& options, Context& ctx, MPI_Comm comm) {
  Runtime& rt = ctx.runtime();
  const double init_start = wall_now();
  CheckpointState state = starting_state(options, ctx);
  const Problem& problem = options.problem;
  const std::int64_t p = problem.domains_per_side;
  // Only the colors' cycles count as load: the rest of a phase on a rank is waiting for the
  // slowest rank, and counted it would make every rank look equally busy (as in tessera-pic).
  ctx.lb().set_load_model([](const lb::LbObject& measured, lb::PhaseId) { return measured.migratable ? measured.load : 0.0; });
  auto colors = ctx.make_collection<Color>(Index3D{p, p, p}, problem);
  ctx.set_checkpoint_state([&state] {
    const auto* bytes = reinterpret_cast<const std::byte*>(&state);
    return std::vector<std::byte>(bytes, bytes + sizeof state);
  });

  Result result;
  result.balancer = ctx.lb_flags().name.empty() ? "none" : ctx.lb_flags().name;
  if (ctx.restarted()) {
    result.resumed_after = state.cycles;
    result.restarted_from = ctx.restart_dir().string();
  } else {
    // The nodal mass of shared nodes is summed once, as the original does before its first cycle.
    ctx.termination().run_in_epoch_collective([&] {
      if (rt.rank() == 0) colors.broadcast_from_this_rank<&Color::exchange_mass>();
    });
  }
  rt.collectives().barrier();
  const double start = wall_now();
  result.init_s = rt.collectives().allreduce(start - init_start, op::max{});

  double load = 0;       // this rank's color load in the phase just ended (s)
  bool measured = false;  // a phase has ended since the loop began
  double imbalance_sum = 0;
  std::int64_t measured_phases = 0;
  for (;;) {
    const CycleSums sums = rt.collectives().allreduce(this_rank(colors, options.max_cycles, load), combine);
    if (measured && sums.sum_load > 0) {
      imbalance_sum += sums.max_load / (sums.sum_load / rt.size()) - 1.0;
      result.imbalance_s += sums.max_load - sums.sum_load / rt.size();
      ++measured_phases;
    }
    state.cycles = sums.cycle;
    if (sums.fault != 0) throw RunError(fault_message(sums.fault, sums.cycle));
    if (options.progress && !options.quiet && rt.rank() == 0 && sums.cycle > result.resumed_after)
      fmt::print("cycle = {}, time = {:e}, dt={:e}\n", sums.cycle, sums.time, sums.deltatime);
    if (options.checkpoint_every > 0 && sums.cycle > result.resumed_after && sums.cycle % options.checkpoint_every == 0)
      ctx.checkpoint_now(std::span<const std::byte>(reinterpret_cast<const std::byte*>(&state), sizeof state));
    if (sums.running == 0) break;
    if (rt.rank() == 0) colors.broadcast_from_this_rank<&Color::cycle>(sums.bound);
    // What a checkpoint that --tessera_checkpoint_interval takes inside phase_end records: the
    // cycle is done by then.
    state.cycles = sums.cycle + 1;
    const collections::PhaseRecord record = ctx.phase_end();
    measured = true;
    load = 0;
    for (const auto& element : record.elements) load += element.load;
    if (const auto& report = ctx.lb().last_report()) {
      ++result.balancings;
      result.migrations += report->migrations;
    }
  }
  ctx.set_checkpoint_state({});  // `state` ends with this call

  const Verification v = verify(colors, problem, comm);
  result.cycles = v.cycles;
  result.origin_energy = v.origin_energy;
  result.symmetry = v.symmetry;
  result.total_energy = v.total_energy;
  result.elapsed_s = rt.collectives().allreduce(wall_now() - start, op::max{});
  result.balancing_s = ctx.lb().balancing_s();
  result.mean_imbalance = measured_phases > 0 ? imbalance_sum / static_cast<double>(measured_phases) : 0.0;
  colors.destroy();
  return result;
}

}  // namespace tessera::lulesh
