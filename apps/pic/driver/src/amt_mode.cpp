#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <tessera/tessera.hpp>

#include "tessera/pic/decomposition.hpp"
#include "tessera/pic/driver/collective.hpp"
#include "tessera/pic/driver/color_directory.hpp"
#include "tessera/pic/driver/color.hpp"
#include "tessera/pic/driver/modes.hpp"
#include "tessera/pic/driver/own_communicator.hpp"
#include "tessera/pic/driver/recut.hpp"
#include "tessera/pic/driver/time_to_solution.hpp"
#include <tessera/runtime/error.hpp>
#include "tessera/pic/id_table.hpp"

namespace tessera::pic::driver {

namespace {

using collections::Index3D;

// What the per-step SPMD region reduces: particles held, in tiles and inboxes. (Only the count:
// a pass over every particle here would be work the SPMD mode does not do.)
double census(const collections::CollectionProxy<Color>& colors) {
  double held = 0.0;
  colors.manager().for_each_local([&held](const Color& color) { held += static_cast<double>(color.held()); });
  return held;
}

// The colors this rank holds, as pieces of tiles (for the ColorDirectory's map).
std::vector<PieceId> local_pieces(const collections::CollectionProxy<Color>& colors) {
  std::vector<PieceId> pieces;
  colors.manager().for_each_local([&pieces](const Color& c) { pieces.push_back(piece_of(c.index())); });
  return pieces;
}

// The colors of a run whose colors split and merge are a dynamic collection (its third bound
// covers every piece a tile can split into); each rank inserts the whole tiles it is home to.
// Otherwise a collection of whole tiles, built at their homes.
collections::CollectionProxy<Color> make_colors(Runtime& rt, bool reshaping, bool restarted, const Problem& problem,
                                                const TileGrid& grid, collections::Mapper<3> home,
                                                const ObjGroup<ColorDirectory>& directory) {
  const std::int64_t widest = (problem.grid_size + grid.tiles_x() - 1) / grid.tiles_x();
  const std::int64_t highest = (problem.grid_size + grid.tiles_y() - 1) / grid.tiles_y();
  if (!reshaping) {
    return collections::make_mapped_collection<Color>(rt, Index3D{grid.tiles_x(), grid.tiles_y(), 1}, std::move(home),
                                                      problem.grid_size, grid.tiles_x(), grid.tiles_y(), directory);
  }
  const auto pieces = static_cast<std::int64_t>(piece_bound(widest, highest) - 1);
  auto colors = collections::make_dynamic_collection<Color>(rt, Index3D{grid.tiles_x(), grid.tiles_y(), pieces}, home);
  if (!restarted) {
    for (std::int64_t t = 0; t < grid.count(); ++t) {
      const TileCoord tile = grid.coord(t);
      const Index3D idx{tile.i, tile.j, 0};
      if (home(idx, Index3D{}, rt.size()) == rt.rank()) {
        colors[idx].insert(problem.grid_size, grid.tiles_x(), grid.tiles_y(), directory);
      }
    }
    rt.drain();
  }
  return colors;
}

// The balancer as the summary names it: the strategy, "lb_file" for a per-phase schedule, or "none".
std::string balancer_label(const lb::LbFlags& flags) {
  if (!flags.name.empty()) {
    return flags.name;
  }
  return flags.file.empty() ? "none" : "lb_file";
}

// What a checkpoint stores beside the colors: where the run was, and what it ran, so a restart
// continues the same problem on the same color grid.
struct CheckpointState {
  std::int64_t step = 0;          // the last step done
  std::uint64_t particles = 0;    // placed at the start (what conservation checks against)
  std::int64_t tiles_x = 0;
  std::int64_t tiles_y = 0;
  std::int64_t grid_size = 0;
  std::uint64_t n = 0;
  std::int64_t k = 0;
  std::int64_t m = 0;
};

// What a process that joins at an expand needs beside its options: where the run is, the rank
// count the colors' homes were drawn for, and whether the phase that ended rebuilt the directory.
struct JoinState {
  CheckpointState state;
  std::int64_t start_ranks = 0;
  std::int64_t rebuilt = 0;  // 1: that phase's balancing split or merged colors
};

void check_same_problem(const CheckpointState& state, const Problem& problem, const std::string& dir) {
  if (state.grid_size != problem.grid_size || state.n != problem.particles || state.k != problem.k ||
      state.m != problem.m) {
    throw InputError(fmt::format("--restart {}: the checkpoint ran L {}, n {}, k {}, m {}; this run asks for L {}, "
                                 "n {}, k {}, m {} (expected the same problem)",
                                 dir, state.grid_size, state.n, state.k, state.m, problem.grid_size,
                                 problem.particles, problem.k, problem.m));
  }
}

void print_header(const Options& options, const TileGrid& grid, int ranks, std::uint64_t placed,
                  const std::string& lb) {
  const Problem& problem = options.problem;
  const CellRect first = grid.rect({0, 0});
  // The color grid of a restart is the checkpoint's, so the count per rank may differ from the flag.
  fmt::print("tessera-pic: mode amt, {} rank(s), {} x {} colors ({:g} per rank) of about {} x {} cells, lb {}\n",
             ranks, grid.tiles_x(), grid.tiles_y(), static_cast<double>(grid.count()) / ranks, first.width,
             first.height, lb);
  fmt::print("  L {}, {}, k {}, m {}, {} steps, {} particles placed (n = {})\n", problem.grid_size,
             problem.distribution.describe(), problem.k, problem.m, options.steps, placed, problem.particles);
  std::fflush(stdout);
}

// Sets the LB load model to each color's particle count times the seconds per particle the ranks
// measured in this step (recut_load_model): the load a color brings to the next phase, free of
// the noise of its own timing. Collective on `comm`.
void predict_loads_from_particles(Context& ctx, const collections::CollectionProxy<Color>& colors,
                                  const RankSample& mine, MPI_Comm comm) {
  const bool cpu = ctx.collection_flags().clock() == collections::LoadClock::cpu;
  std::array<double, 2> work{cpu ? mine.update.cpu_s : mine.update.wall_s, static_cast<double>(mine.particles)};
  MPI_Allreduce(MPI_IN_PLACE, work.data(), 2, MPI_DOUBLE, MPI_SUM, comm);
  std::unordered_map<std::uint64_t, std::uint64_t> counts;
  colors.manager().for_each_local([&counts](const Color& c) { counts[c.linear_id()] = c.held(); });
  ctx.lb().set_load_model(recut_load_model(std::move(counts), work[1] > 0.0 ? work[0] / work[1] : 0.0));
}

// Re-cuts the colors if the rule says so (recut.hpp); if it did, the phase ending now balances the
// new colors with loads predicted from their particle counts at the ranks' measured seconds per
// particle (summed over ranks: a rank whose colors were all empty measured no rate of its own).
bool recut_and_request_balancing(Context& ctx, Recutter& recutter, const collections::CollectionProxy<Color>& colors,
                                 const RankSample& mine, bool balancer_stuck, Breakdown& parts) {
  const Clock::time_point start = Clock::now();
  const bool recut = recutter.maybe_recut(ctx.runtime(), colors, balancer_stuck);
  if (recut) {
    predict_loads_from_particles(ctx, colors, mine, recutter.comm());
    ctx.lb().request();
  }
  parts.recut_s += seconds_since(start);
  return recut;
}

}  // namespace

RunSummary run_amt(const Options& options, MPI_Comm parent) {
  const Problem& problem = options.problem;
  OwnCommunicator own(parent);
  // The application's communicator: after an elastic shrink, the Context's split of it.
  MPI_Comm comm = own.get();
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  // Input errors first, while every rank can still stop together with one message. A restart takes
  // its color grid from the checkpoint, so there the runtime (which verifies it) starts first.
  problem.validate();
  std::optional<Decomposition> decomposition;
  if (options.restart.empty()) {
    decomposition.emplace(problem, ranks, options.colors_per_rank);
  }
  check_writable(comm, "--dump_particles", options.dump_particles);

  std::vector<std::string> runtime_args{"tessera-pic"};
  runtime_args.insert(runtime_args.end(), options.tessera_args.begin(), options.tessera_args.end());
  Context ctx(runtime_args, comm);
  if (ctx.help_shown()) {
    RunSummary shown;
    shown.help_shown = true;
    return shown;
  }
  Runtime& rt = ctx.runtime();
  CheckpointState state;
  const bool joined = ctx.joined();
  JoinState join;
  if (joined) {
    // A process an expand started: it enters the run after the phase the expand ended, on the
    // running ranks' communicator, with their colors' homes; balancing fills it.
    join = ctx.join_state<JoinState>();
    state = join.state;
    comm = ctx.app_comm();
    MPI_Comm_rank(comm, &rank);
    ranks = static_cast<int>(join.start_ranks);
    decomposition.emplace(problem, ranks, state.tiles_x, state.tiles_y);
  } else if (ctx.restarted()) {
    state = ctx.restart_state<CheckpointState>();
    check_same_problem(state, problem, options.restart);
    decomposition.emplace(problem, ranks, state.tiles_x, state.tiles_y);
  }
  const TileGrid& grid = decomposition->colors();
  // The phase's time outside element handlers, which the LB input charges to each rank as one
  // object that cannot move, is here almost all waiting: in the drain for the slowest rank's
  // colors and in the SPMD region. Counted as load it makes the idle ranks look as busy as the
  // loaded one and no strategy moves anything, so only the colors' particle updates count.
  const lb::LoadModel counted = [](const lb::LbObject& measured, lb::PhaseId) {
    return measured.migratable ? measured.load : 0.0;
  };
  ctx.lb().set_load_model(counted);

  // The element at index (i, j) is color (i, j); it starts on the rank whose block holds it.
  // Split pieces have their tile's home. After an elastic shrink the homes are the blocks' ranks
  // scaled to the ranks that stay.
  collections::Mapper<3> home = [&decomposition, &grid, start_ranks = ranks](const Index3D& idx, const Index3D&, int now) {
    const auto block = decomposition->home_rank(grid.index({idx[0], idx[1]}));
    return static_cast<int>(now == start_ranks ? block : block * now / start_ranks);
  };
  // Colors split and merge when a balancing may split or merge them; re-cutting
  // moves the cuts of whole colors instead, and the two do not combine.
  const bool reshaping = ctx.lb_flags().reshape().enabled();
  const bool elastic = !ctx.elastic_flags().plan.empty() || !ctx.elastic_flags().control.empty();
  if (elastic && options.recut != "off") {
    throw InputError("--recut auto cuts the colors for a fixed rank count and cannot be combined with "
                     "--tessera_elastic_plan or --tessera_elastic_control (expected one of them)");
  }
  if (reshaping && options.recut != "off") {
    throw InputError("--recut auto moves the cuts of whole colors and cannot be combined with "
                     "--tessera_lb_split_above or --tessera_lb_merge_below (expected one of them)");
  }
  const auto directory = make_objgroup<ColorDirectory>(rt, ColorCuts::even(grid), reshaping);
  // On a restart the colors come back from the checkpoint (where they were, or at their new
  // homes on another rank count) instead of being constructed and filled.
  auto colors = make_colors(rt, reshaping, ctx.restarted() || joined, problem, grid, home, directory);
  if (reshaping) directory.local()->rebuild(comm, local_pieces(colors));
  directory.local()->reset_arrivals();
  if (!ctx.restarted() && !joined) {
    IdTable ids(grid);
    colors.manager().for_each_local(
        [&](Color& c) { ids.record({c.index()[0], c.index()[1]}, c.tile().draw(problem)); });
    combine_id_table(comm, ids);
    colors.manager().for_each_local(
        [&](Color& c) { c.tile().place(problem, ids.first_ids({c.index()[0], c.index()[1]})); });
    state = CheckpointState{0, ids.total(), grid.tiles_x(), grid.tiles_y(), problem.grid_size, problem.particles,
                            problem.k, problem.m};
  }
  const std::uint64_t placed = state.particles;
  // Re-cutting needs a strategy to balance the new colors right after (recut.hpp).
  std::optional<Recutter> recutter;
  if (options.recut == "auto" && !ctx.lb_flags().name.empty()) {
    recutter.emplace(comm, grid, problem, placed);
  }

  const std::string lb = balancer_label(ctx.lb_flags());
  if (rank == 0 && !options.json) {
    print_header(options, grid, ranks, placed, lb);
    if (ctx.restarted()) {
      fmt::print("  restarted from {} after step {}\n", ctx.restart_dir().string(), state.step);
    }
  }

  StepRecorder recorder(comm, options.json ? 0 : options.print_every);
  bool conserved = true;
  double phase_end_s = 0.0;
  std::uint64_t balanced = 0;
  std::int64_t splits = 0;
  std::int64_t merges = 0;
  std::vector<std::int64_t> balanced_steps;
  bool balancer_stuck = false;  // the last balancing left I above the tolerance (Recutter)
  Breakdown parts;
  const double init_s = seconds_since(options.started);
  const Clock::time_point run_start = Clock::now();
  const double run_start_cpu = thread_cpu_seconds();
  const std::int64_t resumed_after = state.step;
  int rescales = rt.rescales();
  // The step an expand would hand to new processes, and the rank count the homes were drawn for.
  std::int64_t current_step = state.step;
  ctx.set_join_state([&ctx, &state, &current_step, start_ranks = ranks] {
    JoinState handed{state, start_ranks, 0};
    handed.state.step = current_step;
    if (const auto& report = ctx.lb().last_report()) handed.rebuilt = report->splits + report->merges > 0 ? 1 : 0;
    return handed;
  });
  if (joined) {
    // The rest of the expand's step as the running ranks go through it after their phase end
    // (the directory rebuilt for the new ranks above, as after any rescale).
    if (join.rebuilt != 0) directory.local()->rebuild(comm, local_pieces(colors));
    if (options.checkpoint_every > 0 && state.step % options.checkpoint_every == 0) ctx.checkpoint_now(state);
  }
  for (std::int64_t step = resumed_after + 1; step <= options.steps; ++step) {
    current_step = step;
    const Clock::time_point step_start = Clock::now();
    if (rank == 0) {
      colors.broadcast_from_this_rank<&Color::advance>(step);
    }
    rt.drain();
    const double handlers_end = seconds_since(step_start);

    RankSample mine;
    double exchange_s = 0.0;
    colors.manager().for_each_local([&mine, &exchange_s](Color& c) {
      mine.update += c.last_update();
      mine.particles += c.last_moved();
      exchange_s += c.take_exchange_seconds();
    });
    parts.update_s += mine.update.wall_s;
    parts.exchange_s += exchange_s;
    parts.wait_s += std::max(0.0, handlers_end - mine.update.wall_s - exchange_s);

    // The SPMD region of the step, on the application's communicator, as EMPIRE's field solve.
    const Clock::time_point spmd_start = Clock::now();
    double held = census(colors);
    MPI_Allreduce(MPI_IN_PLACE, &held, 1, MPI_DOUBLE, MPI_SUM, comm);
    conserved = conserved && held == static_cast<double>(placed);
    recorder.record(step, mine);
    parts.spmd_s += seconds_since(spmd_start);

    const bool recut = recutter && recut_and_request_balancing(ctx, *recutter, colors, mine, balancer_stuck, parts);
    // A re-cut sets its own prediction for this phase's end.
    if (options.color_loads == "particles" && !recut) predict_loads_from_particles(ctx, colors, mine, comm);

    // The phase closes after the drain and the SPMD region, so its time is the LB manager's work
    // (strategy and migration) and the close itself, not waiting for the slowest rank's update.
    const Clock::time_point close_start = Clock::now();
    ctx.phase_end();
    const double close_s = seconds_since(close_start);
    if (ctx.left()) {
      RunSummary gone;
      gone.left = true;
      return gone;
    }
    if (rt.rescales() != rescales) {
      // The ranks that stay go on over the application's communicator as the shrink cut it.
      rescales = rt.rescales();
      comm = ctx.app_comm();
      MPI_Comm_rank(comm, &rank);
      recorder.set_comm(comm);
      if (reshaping) directory.local()->rebuild(comm, local_pieces(colors));
    }
    phase_end_s += close_s;
    parts.phase_close_s += close_s;
    if (const auto& report = ctx.lb().last_report()) {
      parts.lb_strategy_s += report->strategy_s;
      parts.lb_migration_s += report->migration_s;
      ++balanced;
      balanced_steps.push_back(step);
      balancer_stuck = report->after.imbalance() > lb::AutoInterval::kTolerance;
      splits += report->splits;
      merges += report->merges;
      // Colors split or merged: every rank learns the new pieces before the next step routes.
      if (report->splits + report->merges > 0) directory.local()->rebuild(comm, local_pieces(colors));
    }
    if (recut) ctx.lb().set_load_model(counted);
    if (options.checkpoint_every > 0 && step % options.checkpoint_every == 0) {
      const Clock::time_point checkpoint_start = Clock::now();
      state.step = step;
      ctx.checkpoint_now(state);
      parts.checkpoint_s += seconds_since(checkpoint_start);
    }
  }

  Verification mine_check;
  std::vector<Particle> mine_particles;
  colors.manager().for_each_local([&](Color& c) {
    c.settle();
    mine_check.merge(c.tile().verify(problem, options.steps));
    if (!options.dump_particles.empty()) {
      mine_particles.insert(mine_particles.end(), c.tile().particles().begin(), c.tile().particles().end());
    }
  });
  const Verification checked = reduce_verification(comm, mine_check);
  const double total_s = seconds_since(run_start);
  const double total_cpu_s = thread_cpu_seconds() - run_start_cpu;
  const TimeToSolution time = reduce_time_to_solution(comm, init_s, total_s, total_cpu_s, parts);
  if (!options.dump_particles.empty()) {
    dump_particles(comm, mine_particles, options.dump_particles);
  }
  double lb_s = 0.0;
  MPI_Allreduce(&phase_end_s, &lb_s, 1, MPI_DOUBLE, MPI_MAX, comm);
  const std::uint64_t arrivals = directory.local()->arrivals();
  std::uint64_t migrations = 0;
  MPI_Allreduce(&arrivals, &migrations, 1, MPI_UINT64_T, MPI_SUM, comm);
  colors.destroy();

  RunSummary summary;
  summary.mode = "amt";
  summary.lb = lb;
  summary.ranks = ranks;
  MPI_Comm_size(comm, &summary.final_ranks);
  summary.rescales = rescales;
  summary.joined = joined;
  for (const RescaleReport& r : ctx.rescale_log()) summary.rescale_stages.push_back(r.json());
  summary.hosts = count_hosts(comm);
  summary.steps = options.steps - resumed_after;
  summary.particles = placed;
  summary.validated = conserved && checked.passed(placed);
  summary.lb_s = lb_s;
  summary.migrations = migrations;
  summary.balanced_phases = balanced;
  summary.recuts = recutter ? recutter->recuts() : 0;
  summary.splits = splits;
  summary.balanced_steps = std::move(balanced_steps);
  summary.merges = merges;
  summary.time = time;
  summary.per_step = recorder.records();
  add_totals(summary);
  // The LB data, report and advice: a failure there ends the job non-zero (main aborts on it).
  if (const FinalizeStatus finished = ctx.finalize(); !finished) throw RunError(finished.message);
  return summary;
}

}  // namespace tessera::pic::driver
