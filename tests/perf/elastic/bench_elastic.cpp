// tessera-bench-elastic: what an elastic shrink and expand cost, beside a balancing that moves the same bytes
// and beside the two fixed-size halves of a run. Run without mpirun: it starts every run itself.
//
// Synthetic part (--worker, under mpirun on 4 ranks, once per trial): 32 blocks of --block_bytes
// each, all on ranks 2 and 3. Four RotateLB balancings each move all 32 blocks (2 -> 3, 3 -> 0, then
// on round the ranks); then ranks 2 and 3 leave at a phase end, which moves the same 32 blocks to
// ranks 0 and 1 and cuts the communicator. Wall clock, the slowest rank's:
//   balancing_same_bytes_s  a RotateLB phase end (strategy, migration of the 32 blocks, report),
//                           median of the four
//   shrink_s                the shrinking phase end: decision, evacuation (strategy and migration of
//                           the same 32 blocks), the homes told, the cut, the report
//   cut_ms                  the cut alone: from the last drain after every rank agreed (the homes
//                           told) to the first phase on the new rank set: communicator split,
//                           transports, node map and tables rebuilt (RescaleReport::cut_s);
//                           handover_ms beside it is the step before (the homes told, two drains)
//   first_phase_after_s     the first (empty) phase end on 2 ranks
// PIC part: tessera-pic, TemperedLB at interval auto, --pic_steps steps (N):
//   midrun_shrink_over_halves  total_s of a run on 4 ranks whose ranks 2 and 3 leave after step N/2,
//                              over the sum of total_s of the halves on fixed rank counts: N/2
//                              steps on 4 ranks, and steps N/2+1..N on 2 ranks restarted from a
//                              checkpoint written after step N/2 (a restart's total_s counts the
//                              resumed steps only; start-up, MPI_Init and reading the checkpoint
//                              are excluded from both sides, as total_s excludes them)
//   expand_s                then, on the 2 ranks left, 2 new processes join (Context::request_expand:
//                           MPI_Comm_spawn and the merges on a helper thread, --tessera_elastic_spawn=
//                           background, while the 2 ranks run busy phases of 20 ms each; then the
//                           JoinState handed over and the runtime moved to 4 ranks at the first
//                           phase end after) and a RotateLB phase end moves all 32 blocks again,
//                           half of them onto the new ranks. The slowest old rank's wall clock from
//                           the phase the request is made in to the end of the filling phase end,
//                           less expand_busy_phases x busy_phase_s (those phases' time measured
//                           just before without an expand): what the expand added to the run,
//                           the slowdown of the phases the spawn overlapped included.
//                           expand_spawn_ms is the helper's spawn and merges; expand_merge_ms the
//                           runtime's move to 4 ranks (transports and tables).
//   expand_phase_ends_s     of it, the two phase ends the run waits at: the one that completes the
//                           expand (its time less a busy phase's) and the filling one; the rest of
//                           expand_s is the slowdown of the phases the spawn overlapped (here the
//                           new processes start on the 2 cores the running ranks busy)
//   joiners_start_cpu_s     the 2 new processes' CPU time until their Context was up (exec, MPI_Init,
//                           the merges, the naps), summed: CPU the running ranks' cores gave them
//   expand_inline_s         the same with --tessera_elastic_spawn=inline (the phase end waits for
//                           MPI_Comm_spawn; the new processes' start-up is inside it)
//   expand_own_core_s       expand_s again where the new process has a core of its own: the worker
//                           on 2 ranks (--ranks 2), rank 1 leaves, 1 new process joins while rank 0
//                           runs busy phases on one of the 2 cores; balancing_own_core_s is that
//                           run's RotateLB balancing of the same 32 blocks. On 4 ranks the 2 new
//                           processes start on the 2 cores the running ranks keep busy, which a
//                           job given a core per slot does not see.
// Every block is checked after the shrink and after the expand (count and bytes).
// Figures are medians over --trials; the runs of one trial are interleaved with the others'.
#include <tessera/tessera.hpp>

#include "../support/commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace {

using namespace tessera::collections;

struct Block : Element<Block, 1> {
  std::vector<std::uint8_t> bytes;
  Block() = default;
  Block(const Index1D& idx, std::int64_t size) : bytes(static_cast<std::size_t>(size), static_cast<std::uint8_t>(idx[0] * 7 + 1)) {}
  double footprint_bytes() const { return static_cast<double>(bytes.size()); }
  void touch() {}
  template <class Archive>
  void serialize(Archive& archive) {
    archive(bytes);
  }
};

double max_over_ranks(tessera::Runtime& rt, double value) { return rt.collectives().allreduce(value, tessera::op::max{}); }

// Every block held somewhere and unchanged, counted over the ranks.
bool blocks_intact(tessera::Runtime& rt, CollectionProxy<Block>& set, std::int64_t blocks, std::int64_t block_bytes) {
  std::int64_t held = 0;
  std::int64_t intact = 0;
  set.manager().for_each_local([&](const Block& b) {
    ++held;
    intact += std::all_of(b.bytes.begin(), b.bytes.end(), [&](std::uint8_t x) { return x == static_cast<std::uint8_t>(b.index()[0] * 7 + 1); }) &&
              static_cast<std::int64_t>(b.bytes.size()) == block_bytes;
  });
  held = rt.collectives().allreduce(held, tessera::op::sum{});
  intact = rt.collectives().allreduce(intact, tessera::op::sum{});
  return held == blocks && intact == blocks;
}

// A phase of the application's work: kBusySeconds of wall clock on each rank, then its end.
constexpr double kBusySeconds = 0.02;
void busy_phase(tessera::Context& ctx) {
  const double until = tessera::wall_time() + kBusySeconds;
  while (tessera::wall_time() < until) {
  }
  ctx.phase_end();
}

// The expand back to 4 ranks and the RotateLB phase end that moves the blocks onto the new
// ranks: the running ranks come here from the shrink, the 2 new processes from their start.
// The running ranks go on with busy phases until the expand completes (at once when it spawns
// inline): the figure is the wall clock from the phase the request is made in to the end of the
// filling phase end, less the busy phases' time measured without an expand (`phase_s` each).
// This process's CPU time so far, seconds (every thread).
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Expanded {
  double expand_s = 0.0;
  double joiners_start_cpu_s = 0.0;  // the new processes' CPU until their Context was up, summed
  double phase_s = 0.0;
  std::int64_t phases = 0;
  double phase_ends_s = 0.0;  // the phase end that completed the expand (less a busy phase) and the filling one
};
Expanded expand_and_fill(tessera::Context& ctx, bool joined, double start_cpu_s, int ranks) {
  tessera::Runtime& rt = ctx.runtime();
  Expanded e;
  double start = 0.0;
  if (!joined) {
    std::vector<double> phase;
    for (int i = 0; i < 3; ++i) {
      const double t = tessera::wall_time();
      busy_phase(ctx);
      phase.push_back(max_over_ranks(rt, tessera::wall_time() - t));
    }
    std::sort(phase.begin(), phase.end());
    e.phase_s = phase[1];
    start = tessera::wall_time();
    ctx.request_expand(ranks / 2);
    double last_start = start;
    do {
      last_start = tessera::wall_time();
      busy_phase(ctx);
      ++e.phases;
    } while (rt.size() == ranks / 2);
    e.phase_ends_s = tessera::wall_time() - last_start - e.phase_s;
  }
  const double fill_start = tessera::wall_time();
  ctx.lb().request("RotateLB");
  ctx.phase_end();
  const double total = max_over_ranks(rt, joined ? 0.0 : tessera::wall_time() - start);
  e.phase_ends_s = max_over_ranks(rt, joined ? 0.0 : e.phase_ends_s + tessera::wall_time() - fill_start);
  e.expand_s = total - static_cast<double>(e.phases) * e.phase_s;
  e.joiners_start_cpu_s = rt.collectives().allreduce(joined ? start_cpu_s : 0.0, tessera::op::sum{});
  return e;
}

int worker(int ranks, std::int64_t blocks, std::int64_t block_bytes, std::vector<std::string> tessera_args) {
  tessera_args.insert(tessera_args.begin(), "tessera-bench-elastic");
  tessera::Context ctx(tessera_args);
  const double start_cpu_s = process_cpu_seconds();
  tessera::Runtime& rt = ctx.runtime();
  ctx.set_join_state([] { return std::vector<std::byte>(); });  // the blocks are all there is
  const bool joined = ctx.joined();
  if (rt.size() != ranks && !joined) rt.stop(fmt::format("--worker --ranks {} runs on {} ranks", ranks, ranks));
  // Every block starts on the upper half of the ranks, the half that leaves.
  const int stay = ranks / 2;
  auto set = ctx.make_mapped_collection<Block>(Index1D{blocks}, Mapper<1>([ranks, stay, blocks](const Index1D& i, const Index1D&, int size) {
    return size == ranks ? stay + static_cast<int>(i[0] * (ranks - stay) / blocks) : static_cast<int>(i[0] % size);
  }), block_bytes);
  nlohmann::json out;
  if (!joined) {
    ctx.phase_end();
    std::vector<double> balancing;
    std::int64_t rotated = 0;
    for (int round = 0; round < 4; ++round) {
      ctx.lb().request("RotateLB");
      const double start = tessera::wall_time();
      ctx.phase_end();
      balancing.push_back(max_over_ranks(rt, tessera::wall_time() - start));
      rotated += ctx.lb().last_report() ? ctx.lb().last_report()->migrations : 0;
    }
    std::vector<int> leaving;
    for (int r = stay; r < ranks; ++r) leaving.push_back(r);
    ctx.request_shrink(leaving);
    const double start = tessera::wall_time();
    ctx.phase_end();
    if (ctx.left()) return 0;
    const double shrink_s = max_over_ranks(rt, tessera::wall_time() - start);
    const tessera::RescaleReport report = *ctx.last_rescale();
    const double first_start = tessera::wall_time();
    for (std::int64_t i = 0; i < blocks; ++i)
      if (i % rt.size() == rt.rank()) set[Index1D{i}].send<&Block::touch>();
    ctx.phase_end();
    const double first_phase_s = max_over_ranks(rt, tessera::wall_time() - first_start);
    std::sort(balancing.begin(), balancing.end());
    out = {{"balancing_same_bytes_s", 0.5 * (balancing[1] + balancing[2])},
           {"rotate_migrations", rotated / 4},
           {"shrink_s", shrink_s},
           {"cut_ms", report.cut_s * 1e3},
           {"handover_ms", report.quiescence_s * 1e3},
           {"evacuation_s", report.evacuation_s},
           {"evacuation_migrations", report.migrations},
           {"first_phase_after_s", first_phase_s},
           {"intact", blocks_intact(rt, set, blocks, block_bytes)}};
  }
  const Expanded expanded_run = expand_and_fill(ctx, joined, start_cpu_s, ranks);
  const bool intact_after_expand = blocks_intact(rt, set, blocks, block_bytes);
  if (rt.rank() == 0) {
    const tessera::RescaleReport expanded = *ctx.last_rescale();
    out["expand_s"] = expanded_run.expand_s;
    out["expand_busy_phases"] = expanded_run.phases;
    out["expand_phase_ends_s"] = expanded_run.phase_ends_s;
    out["joiners_start_cpu_s"] = expanded_run.joiners_start_cpu_s;
    out["busy_phase_s"] = expanded_run.phase_s;
    out["expand_background"] = expanded.background;
    out["expand_spawn_ms"] = expanded.spawn_s * 1e3;
    out["expand_merge_ms"] = expanded.cut_s * 1e3;
    out["expand_handover_ms"] = expanded.quiescence_s * 1e3;
    out["expand_fill_migrations"] = ctx.lb().last_report() ? ctx.lb().last_report()->migrations : 0;
    out["ranks_after_expand"] = rt.size();
    out["intact"] = out["intact"].get<bool>() && intact_after_expand && rt.size() == ranks;
    fmt::print("{}\n", out.dump());
  }
  set.destroy();
  return intact_after_expand && rt.size() == ranks ? 0 : 1;
}

nlohmann::json run_json(const std::string& command) { return tessera::bench::last_json(tessera::bench::run_command(command), command); }
using tessera::bench::median;

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera-bench-elastic: an elastic shrink against a balancing of the same bytes and the fixed halves"};
  bool is_worker = false;
  int worker_ranks = 4;
  std::int64_t blocks = 32;
  std::int64_t block_bytes = 1 << 18;
  int trials = 3;
  std::int64_t pic_steps = 200;
  std::string pic_problem = "--L 480 --n 200000";
  std::string report = "text";
  std::string dir = "bench-elastic-work";
  app.add_flag("--worker", is_worker, "the synthetic part on 4 ranks (started by the benchmark itself)");
  app.add_option("--ranks", worker_ranks, "the worker's ranks, half of which leave and come back")->check(CLI::IsMember({2, 4}))->capture_default_str();
  app.add_option("--blocks", blocks, "blocks moved by each balancing and by the shrink")->capture_default_str();
  app.add_option("--block_bytes", block_bytes, "bytes per block")->capture_default_str();
  app.add_option("--trials", trials, "rounds; each figure is the median")->capture_default_str();
  app.add_option("--pic_steps", pic_steps, "steps of the PIC runs (even)")->capture_default_str();
  app.add_option("--pic_problem", pic_problem, "tessera-pic's problem flags")->capture_default_str();
  app.add_option("--dir", dir, "where the checkpoint of the PIC halves goes (removed after each trial)")->capture_default_str();
  app.add_option("--report", report, "text, or json: one JSON object last")->check(CLI::IsMember({"text", "json"}));
  app.allow_extras();  // the worker's --tessera_ flags (an expand adds one to the processes it starts)
  CLI11_PARSE(app, argc, argv);
  if (blocks < 4 || block_bytes < 1 || trials < 1 || pic_steps < 2 || pic_steps % 2 != 0) {
    std::fprintf(stderr, "tessera-bench-elastic: expected --blocks >= 4, --block_bytes >= 1, --trials >= 1, even --pic_steps >= 2\n");
    return 2;
  }
  if (is_worker) return worker(worker_ranks, blocks, block_bytes, app.remaining());

  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  const std::string mpirun = TESSERA_BENCH_MPIRUN;
  std::string spawning = mpirun;
  if (const auto at = spawning.find("btl self,vader"); at != std::string::npos) spawning.replace(at, 14, "btl self,vader,tcp");
  // --host localhost:8 gives more slots than cores, so Open MPI would poll instead of yielding
  // while it waits (the shrink's cut went from 5 ms to 40-180 ms): say that the cores are shared.
  spawning += " --mca mpi_yield_when_idle 1";
  const std::string pic = fmt::format("{} {} --mode=amt --print_every 0 --report=json --tessera_lb_name=TemperedLB "
                                      "--tessera_lb_interval=auto",
                                      TESSERA_PIC_BINARY, pic_problem);
  const std::int64_t half = pic_steps / 2;
  std::vector<nlohmann::json> synthetic, synthetic_inline, own_cores;
  std::vector<double> ratio, midrun, first_half, second_half;
  // The checkpoints are scratch: each goes once its trial has read it, and the folder too if this
  // run made it, so a run leaves nothing behind in the folder it was started from.
  const bool made_dir = !std::filesystem::exists(dir);
  try {
    for (int t = 0; t < trials; ++t) {
      // 8 slots (2 for the expand's new processes after the 2 that left), tcp to reach them.
      // The expand's spawn in the background (the figures), and inline beside it.
      for (const char* spawn : {"background", "inline"}) {
        auto& into = std::string_view(spawn) == "background" ? synthetic : synthetic_inline;
        into.push_back(run_json(fmt::format("{} --host localhost:8 -np 4 {} --worker --blocks {} --block_bytes {} --tessera_elastic_spawn={}",
                                            spawning, self, blocks, block_bytes, spawn)));
        if (!into.back().at("intact").get<bool>()) throw std::runtime_error("a block was lost or changed by the shrink or the expand");
      }
      // 2 -> 1 -> 2: the new process starts on the core the one running rank leaves free.
      own_cores.push_back(run_json(fmt::format("{} --host localhost:8 -np 2 {} --worker --ranks 2 --blocks {} --block_bytes {} "
                                               "--tessera_elastic_spawn=background",
                                               spawning, self, blocks, block_bytes)));
      if (!own_cores.back().at("intact").get<bool>()) throw std::runtime_error("a block was lost or changed by the 2-rank shrink or expand");
      const auto shrinking = run_json(fmt::format("{} -np 4 {} --steps {} '--tessera_elastic_plan={}:shrink 2,3'", mpirun, pic,
                                                  pic_steps, half));
      const auto first = run_json(fmt::format("{} -np 4 {} --steps {}", mpirun, pic, half));
      const std::string ck = fmt::format("{}/ck{}", dir, t);
      std::filesystem::remove_all(ck);
      run_json(fmt::format("{} -np 4 {} --steps {} --checkpoint_every {} --tessera_checkpoint_dir={} --tessera_checkpoint_keep=0",
                           mpirun, pic, half, half, ck));
      const auto second = run_json(fmt::format("{} -np 2 {} --steps {} --restart {}", mpirun, pic, pic_steps, ck));
      std::filesystem::remove_all(ck);
      for (const auto* r : {&shrinking, &first, &second})
        if (!r->at("validated").get<bool>()) throw std::runtime_error("a PIC run did not validate");
      if (shrinking.at("final_ranks").get<int>() != 2) throw std::runtime_error("the shrinking PIC run did not end on 2 ranks");
      midrun.push_back(shrinking.at("total_s").get<double>());
      first_half.push_back(first.at("total_s").get<double>());
      second_half.push_back(second.at("total_s").get<double>());
      ratio.push_back(midrun.back() / (first_half.back() + second_half.back()));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera-bench-elastic: %s\n", e.what());
    return 1;
  }
  std::error_code kept;  // a folder something else wrote into stays, and the figures still print
  if (made_dir) std::filesystem::remove(dir, kept);
  const auto med_of = [](const std::vector<nlohmann::json>& runs, const char* key) {
    std::vector<double> v;
    for (const auto& s : runs) v.push_back(s.at(key).get<double>());
    return median(v);
  };
  const auto med = [&](const char* key) { return med_of(synthetic, key); };
  nlohmann::json out = {{"benchmark", "elastic"},
                        {"ranks", 4},
                        {"leaving", 2},
                        {"blocks", blocks},
                        {"block_bytes", block_bytes},
                        {"cut_ms", med("cut_ms")},
                        {"handover_ms", med("handover_ms")},
                        {"shrink_s", med("shrink_s")},
                        {"expand_s", med("expand_s")},
                        {"expand_spawn_ms", med("expand_spawn_ms")},
                        {"expand_merge_ms", med("expand_merge_ms")},
                        {"expand_handover_ms", med("expand_handover_ms")},
                        {"expand_over_balancing_s", med("expand_s") - med("balancing_same_bytes_s")},
                        {"expand_busy_phases", med("expand_busy_phases")},
                        {"busy_phase_s", med("busy_phase_s")},
                        {"expand_phase_ends_s", med("expand_phase_ends_s")},
                        {"joiners_start_cpu_s", med("joiners_start_cpu_s")},
                        {"expand_phase_ends_over_balancing_s", med("expand_phase_ends_s") - med("balancing_same_bytes_s")},
                        {"expand_inline_s", med_of(synthetic_inline, "expand_s")},
                        {"expand_own_core_s", med_of(own_cores, "expand_s")},
                        {"expand_own_core_phase_ends_s", med_of(own_cores, "expand_phase_ends_s")},
                        {"expand_own_core_busy_phases", med_of(own_cores, "expand_busy_phases")},
                        {"expand_own_core_spawn_ms", med_of(own_cores, "expand_spawn_ms")},
                        {"joiner_own_core_start_cpu_s", med_of(own_cores, "joiners_start_cpu_s")},
                        {"balancing_own_core_s", med_of(own_cores, "balancing_same_bytes_s")},
                        {"expand_own_core_over_balancing_s", med_of(own_cores, "expand_s") - med_of(own_cores, "balancing_same_bytes_s")},
                        {"expand_inline_spawn_ms", med_of(synthetic_inline, "expand_spawn_ms")},
                        {"expand_inline_merge_ms", med_of(synthetic_inline, "expand_merge_ms")},
                        {"balancing_same_bytes_s", med("balancing_same_bytes_s")},
                        {"shrink_over_balancing_s", med("shrink_s") - med("balancing_same_bytes_s")},
                        {"first_phase_after_s", med("first_phase_after_s")},
                        {"midrun_shrink_over_halves", median(ratio)},
                        {"midrun_shrink_total_s", median(midrun)},
                        {"first_half_total_s", median(first_half)},
                        {"second_half_total_s", median(second_half)},
                        {"pic_steps", pic_steps},
                        {"pic_problem", pic_problem},
                        {"trials", trials}};
  if (report == "json") {
    fmt::print("{}\n", out.dump());
  } else {
    fmt::print("elastic shrink, 4 -> 2 ranks, {} blocks of {} B, median of {} trial(s):\n", blocks, block_bytes, trials);
    fmt::print("  cut {:.3f} ms (handover before it {:.3f} ms); shrink {:.4f} s; RotateLB balancing of the same bytes {:.4f} s\n",
               out["cut_ms"].get<double>(), out["handover_ms"].get<double>(), out["shrink_s"].get<double>(),
               out["balancing_same_bytes_s"].get<double>());
    fmt::print("  expand 2 -> 4 ranks with the RotateLB phase end that fills them {:.4f} s (spawn in the background {:.1f} ms "
               "over {} busy phases, merge {:.1f} ms); spawning inline {:.4f} s (spawn {:.1f} ms)\n",
               out["expand_s"].get<double>(), out["expand_spawn_ms"].get<double>(), out["expand_busy_phases"].get<double>(),
               out["expand_merge_ms"].get<double>(), out["expand_inline_s"].get<double>(), out["expand_inline_spawn_ms"].get<double>());
    fmt::print("  expand 1 -> 2 ranks, the new process on a core of its own: {:.4f} s against its balancing {:.4f} s\n",
               out["expand_own_core_s"].get<double>(), out["balancing_own_core_s"].get<double>());
    fmt::print("  PIC, {} steps: shrinking run {:.3f} s over halves {:.3f} + {:.3f} s = {:.3f}\n", pic_steps, median(midrun),
               median(first_half), median(second_half), median(ratio));
  }
  return 0;
}
