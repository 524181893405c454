// tessera-bench-pic: the AMT mode of tessera-pic against its SPMD mode, by running
// the tessera-pic executable under mpirun and reading each run's JSON summary. Every figure is a
// median over --trials rounds; each round runs every configuration once, so slow moments of the
// machine spread over all of them (runs interleaved).
//
// Time to solution, 2 ranks (one per core), wall clock, tessera-pic's total_s: first step
// to the verified end, the slowest rank, with every per-phase cost (particle exchange, drains, the
// SPMD region, phase close, LB statistics, strategy and migration). Excluded: process start-up, MPI
// and runtime set-up, collection creation and particle placement (init_s, reported separately as
// init_s_median) and MPI_Finalize; mpirun_wall_s is the whole mpirun, which includes them.
//   time_to_solution_speedup[balancer]  SPMD / AMT total_s, drifting PATCH, --tessera_lb_interval=auto
//   time_to_solution_speedup_second_input[balancer]  the same on a second drifting input of another
//                                       size and patch, named in "second_input": a grid
//                                       of L2 = 3/4 L, 2/3 of the particles, an (L2/6)-cell square
//                                       patch from (0, 2 L2 / 3) (L 960: L 720, n 400000,
//                                       PATCH 0 119 480 599), moving as the first; like the first it
//                                       stays on the first of 2 SPMD ranks most of the run
//   ideal_speedup, ideal_speedup_second_input  SPMD's slowest-rank update over its average-rank
//                                       update: what perfect balance with no overhead would give
//                                       (2.0 when one of 2 ranks holds every particle throughout)
//   balanced_bound_speedup[balancer]    SPMD total_s over the same AMT run's total_s less its
//                                       update imbalance (the sum over steps of the slowest rank's
//                                       update minus the average rank's): the run had every step's
//                                       update been perfectly balanced, with its exchange, phase
//                                       close, strategy, migrations and waits from noise unchanged.
//                                       The time-to-solution target above this is out of reach of
//                                       any placement of the run's work
//   time_to_solution_overhead           AMT without LB / SPMD total_s, particles over the whole grid
//   lb_every_phase_speedup[TemperedLB]  SPMD / AMT total_s, drifting PATCH, interval 1;
//                                       lb_every_phase_balanced_bound: its balanced_bound_speedup
//   auto_balancings_in_50_phases[input][balancer]  phases balanced at --tessera_lb_interval=auto in a
//                                       50-step run of an input whose load does not drift (target:
//                                       at most 1): particles over the whole grid, and SINUSOIDAL
//   auto_mean_imbalance_particles[balancer]  mean I of particles moved per rank, drifting PATCH,
//                                       interval auto (below 0.15)
//   trace_cost                          TemperedLB (interval auto) with --tessera_trace / without,
//                                       total_s (bound: 1.15); trace_cost_mpirun_wall is
//                                       the same for the whole mpirun, which adds rank 0's merge of
//                                       the ranks' files into trace.json at finalize
//   split_merge                         colors split and merged at balancings, drifting
//                                       PATCH, TemperedLB at interval auto, --color_loads=particles:
//                                       mean_imbalance_after_lb (I of particles moved in the step
//                                       after each balancing, averaged; target at most 0.02) with
//                                       --tessera_lb_split_above / _merge_below ("args"), and
//                                       without them (_whole_colors) and without them on measured
//                                       loads (_measured_loads: the auto TemperedLB run above);
//                                       time_to_solution_speedup (SPMD / split total_s) and
//                                       fraction_of_balanced_bound: that over balanced_bound_speedup
//                                       of TemperedLB above (target at least 0.97); splits, merges
// Particle update only (excludes everything but the mover):
//   amt_overhead_ratio       AMT without LB / SPMD, slowest rank's update time, whole grid
//   speedup[balancer]        SPMD / AMT update time, drifting PATCH, interval auto
//   modeled_speedup_8_ranks  the same on 8 ranks from thread CPU time at --modeled_n particles
//                            (ranks share the 2 cores, so wall time would measure the OS scheduler)
// Every run must validate; a failed or unparsable run stops the benchmark with exit code 1.
// --launcher CMD starts each run with CMD instead of mpirun -np N (across the hosts of
// tests/multihost, "launch.sh 2x1 --"): CMD places the ranks, so the modeled runs, which need
// their own rank count, are skipped. "hosts" is what the runs report (shared-memory nodes).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <map>
#include <vector>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/wait.h>

namespace {

const std::array<const char*, 4> kBalancers = {"GreedyLB", "HierLB", "GrapevineLB", "TemperedLB"};

struct Bench {
  std::string mpirun;
  std::string launcher;  // when set, replaces "mpirun -np N"
  std::string pic;
  std::string problem;  // the steps flag every run shares (each config names its grid and particles)

  // Runs tessera-pic and returns its JSON summary; throws if it fails or does not validate.
  nlohmann::json run(int ranks, const std::string& args, std::int64_t steps = 0) const {
    const std::string start = launcher.empty() ? fmt::format("{} -np {}", mpirun, ranks) : launcher;
    const std::string shared = steps > 0 ? fmt::format("--steps {}", steps) : problem;
    const std::string command = fmt::format("{} {} {} {} --report=json 2>&1", start, pic, shared, args);
    std::FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) throw std::runtime_error("cannot start: " + command);
    std::string output;
    std::array<char, 4096> chunk{};
    for (std::size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0;) output.append(chunk.data(), n);
    const int status = pclose(pipe);
    // The summary is the last line that opens a JSON object (the LB manager prints lines before it).
    const std::size_t newline = output.rfind("\n{");
    const std::size_t brace = newline == std::string::npos ? (output.starts_with('{') ? 0 : newline) : newline + 1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || brace == std::string::npos)
      throw std::runtime_error(fmt::format("{} failed:\n{}", command, output));
    nlohmann::json report = nlohmann::json::parse(output.substr(brace));
    if (!report.at("validated").get<bool>()) throw std::runtime_error(command + ": the particles did not validate");
    return report;
  }
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Each configuration's JSON summaries over the rounds, and the wall time of each whole mpirun.
struct Samples {
  std::vector<nlohmann::json> reports;
  std::vector<double> walls;
  double median_of(const char* key) const {
    std::vector<double> v;
    for (const auto& r : reports) v.push_back(r.at(key).get<double>());
    return median(v);
  }
};

struct Config {
  std::string name;
  int ranks;
  std::string args;
  std::int64_t steps = 0;  // 0: the benchmark's --steps
};

const std::array<const char*, 2> kStillBalancers = {"GreedyLB", "TemperedLB"};
constexpr std::int64_t kStillSteps = 50;
// The split and merge factors of the split_merge runs: split a color above a quarter of a rank's
// load, merge halves below half the average color's.
constexpr const char* kSplitMergeArgs = "--tessera_lb_split_above=0.25 --tessera_lb_merge_below=0.5";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera-bench-pic: AMT colors against SPMD on the PIC proxy", "tessera-bench-pic"};
  std::string report = "text";
  std::int64_t grid = 960;
  std::int64_t particles = 600000;
  std::int64_t modeled_particles = 100000;
  std::int64_t steps = 300;
  int modeled_ranks = 8;
  int trials = 3;
  std::string tempered_args;
  app.add_option("--report", report, "text or json (one JSON object, last line)")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--L", grid, "grid side in cells (even)")->capture_default_str();
  app.add_option("--n", particles, "particles requested")->capture_default_str();
  app.add_option("--modeled_n", modeled_particles, "particles requested in the modeled runs")->capture_default_str();
  app.add_option("--steps", steps, "time steps per run")->capture_default_str();
  app.add_option("--modeled_ranks", modeled_ranks, "ranks of the CPU-time model (0: skip it)")->capture_default_str();
  app.add_option("--trials", trials, "rounds; every figure is the median over them")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  std::string launcher;
  app.add_option("--launcher", launcher, "start each run with this command instead of mpirun -np N "
                                         "(it places the ranks; the modeled runs are skipped)");
  app.add_option("--tempered_args", tempered_args,
                 "TemperedLB's key=value arguments in every TemperedLB run, e.g. \"swaps=4\" (an A/B of a key)");
  CLI11_PARSE(app, argc, argv);
  if (!launcher.empty()) modeled_ranks = 0;
  if (tempered_args.find('\'') != std::string::npos) {
    fmt::print(stderr, "--tempered_args: a single quote cannot pass through the shell command\n");
    return 2;
  }

  const Bench bench{TESSERA_BENCH_MPIRUN, launcher, TESSERA_PIC_BINARY, fmt::format("--steps {}", steps)};
  const std::string n = fmt::format("--L {} --n {} ", grid, particles);
  const std::string patch = n + fmt::format("--distribution PATCH 0 {0} 0 {0}", grid / 4 - 1);
  // The price of colors on an evenly loaded grid (a PATCH over the whole grid: on 2 ranks
  // SINUSOIDAL leaves I near 0.45 in the SPMD decomposition, which would mix imbalance in).
  const std::string even = n + fmt::format("--distribution PATCH 0 {0} 0 {0}", grid - 1);
  // The second drifting input: another grid size, particle count and patch place.
  const std::int64_t second_grid = grid * 3 / 4 / 2 * 2;
  const std::int64_t second_side = second_grid / 6;
  const std::int64_t second_x = 0;
  const std::int64_t second_y = second_grid * 2 / 3;
  const std::string second_input =
      fmt::format("--L {} --n {} --distribution PATCH {} {} {} {}", second_grid, particles * 2 / 3, second_x,
                  second_x + second_side - 1, second_y, second_y + second_side - 1);
  const std::string modeled_patch =
      fmt::format("--L {} --n {} --distribution PATCH 0 {} 0 {}", grid, modeled_particles, grid / 4 - 1, grid / 4 - 1);

  std::vector<Config> configs = {{"spmd_even", 2, even},
                                 {"amt_even", 2, "--mode=amt " + even},
                                 {"spmd", 2, patch},
                                 {"every_TemperedLB", 2, "--mode=amt --tessera_lb_name=TemperedLB " + patch}};
  for (const char* lb : kBalancers)
    configs.push_back({fmt::format("auto_{}", lb), 2,
                       fmt::format("--mode=amt --tessera_lb_name={} --tessera_lb_interval=auto {}", lb, patch)});
  configs.push_back({"spmd_second", 2, second_input});
  for (const char* lb : kBalancers)
    configs.push_back({fmt::format("second_{}", lb), 2,
                       fmt::format("--mode=amt --tessera_lb_name={} --tessera_lb_interval=auto {}", lb, second_input)});
  const std::string particle_loads = "--mode=amt --tessera_lb_name=TemperedLB --tessera_lb_interval=auto "
                                     "--color_loads=particles ";
  configs.push_back({"split_TemperedLB", 2, particle_loads + kSplitMergeArgs + " " + patch});
  configs.push_back({"whole_TemperedLB", 2, particle_loads + patch});
  // Inputs whose load does not drift, at auto: how often it balances (the interval test, on 2 ranks
  // and wall-clock loads).
  const std::array<std::pair<const char*, std::string>, 2> still_inputs = {
      std::pair<const char*, std::string>{"whole_grid", even}, {"SINUSOIDAL", n + "--distribution SINUSOIDAL"}};
  for (const auto& [input, args] : still_inputs)
    for (const char* lb : kStillBalancers)
      configs.push_back({fmt::format("still_{}_{}", input, lb), 2,
                         fmt::format("--mode=amt --tessera_lb_name={} --tessera_lb_interval=auto {}", lb, args),
                         kStillSteps});
  const std::filesystem::path trace_dir =
      std::filesystem::temp_directory_path() / fmt::format("tessera-bench-pic-trace-{}", ::getpid());
  configs.push_back({"traced_TemperedLB", 2,
                     fmt::format("--mode=amt --tessera_lb_name=TemperedLB --tessera_lb_interval=auto "
                                 "--tessera_trace={} {}",
                                 trace_dir.string(), patch)});
  if (modeled_ranks > 0) {
    configs.push_back({"modeled_spmd", modeled_ranks, modeled_patch});
    for (const char* lb : kBalancers)
      configs.push_back({fmt::format("modeled_{}", lb), modeled_ranks,
                         fmt::format("--mode=amt --tessera_lb_name={} --tessera_lb_load_clock=cpu {}", lb, modeled_patch)});
  }
  if (!tempered_args.empty())
    for (Config& c : configs)
      if (c.args.find("--tessera_lb_name=TemperedLB") != std::string::npos)
        c.args += fmt::format(" '--tessera_lb_args={}'", tempered_args);
  try {
    std::map<std::string, Samples> samples;
    for (int t = 0; t < trials; ++t) {
      for (const Config& c : configs) {
        const auto start = std::chrono::steady_clock::now();
        samples[c.name].reports.push_back(bench.run(c.ranks, c.args, c.steps));
        samples[c.name].walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
    }
    const auto total = [&](const std::string& name) { return samples.at(name).median_of("total_s"); };
    // A run's total_s less its update imbalance (balanced_bound_speedup above), the median over rounds.
    const auto balanced_total = [](const Samples& runs) {
      std::vector<double> balanced;
      for (const auto& r : runs.reports)
        balanced.push_back(r.at("total_s").get<double>() -
                           (r.at("update_max_s").get<double>() - r.at("update_avg_s").get<double>()));
      return median(balanced);
    };
    nlohmann::ordered_json tts = nlohmann::ordered_json::object();
    nlohmann::ordered_json speedup = nlohmann::ordered_json::object();
    nlohmann::ordered_json modeled = nlohmann::ordered_json::object();
    nlohmann::ordered_json second = nlohmann::ordered_json::object();
    nlohmann::ordered_json bound = nlohmann::ordered_json::object();
    nlohmann::ordered_json walls = nlohmann::ordered_json::object();
    for (const char* lb : kBalancers) {
      const std::string name = fmt::format("auto_{}", lb);
      tts[lb] = total("spmd") / total(name);
      speedup[lb] = samples.at("spmd").median_of("update_max_s") / samples.at(name).median_of("update_max_s");
      second[lb] = total("spmd_second") / total(fmt::format("second_{}", lb));
      bound[lb] = total("spmd") / balanced_total(samples.at(name));
      if (modeled_ranks > 0)
        modeled[lb] = samples.at("modeled_spmd").median_of("update_max_cpu_s") /
                      samples.at(fmt::format("modeled_{}", lb)).median_of("update_max_cpu_s");
    }
    nlohmann::ordered_json still = nlohmann::ordered_json::object();
    for (const auto& [input, args] : still_inputs)
      for (const char* lb : kStillBalancers)
        still[input][lb] = samples.at(fmt::format("still_{}_{}", input, lb)).median_of("balanced_phases");
    nlohmann::ordered_json drifting_imbalance = nlohmann::ordered_json::object();
    for (const char* lb : kBalancers)
      drifting_imbalance[lb] = samples.at(fmt::format("auto_{}", lb)).median_of("mean_imbalance_particles");
    for (const auto& [name, s] : samples) walls[name] = median(s.walls);
    const double split_speedup = total("spmd") / total("split_TemperedLB");
    const nlohmann::ordered_json split_merge = {
        {"mean_imbalance_after_lb", samples.at("split_TemperedLB").median_of("mean_imbalance_after_lb")},
        {"mean_imbalance_after_lb_whole_colors", samples.at("whole_TemperedLB").median_of("mean_imbalance_after_lb")},
        {"mean_imbalance_after_lb_measured_loads", samples.at("auto_TemperedLB").median_of("mean_imbalance_after_lb")},
        {"time_to_solution_speedup", split_speedup},
        {"time_to_solution_speedup_whole_colors", total("spmd") / total("whole_TemperedLB")},
        {"fraction_of_balanced_bound", split_speedup / bound["TemperedLB"].get<double>()},
        {"splits", samples.at("split_TemperedLB").median_of("splits")},
        {"merges", samples.at("split_TemperedLB").median_of("merges")},
        {"args", kSplitMergeArgs}};
    std::filesystem::remove_all(trace_dir);
    const double trace_cost = total("traced_TemperedLB") / total("auto_TemperedLB");
    const double trace_cost_wall = walls["traced_TemperedLB"].get<double>() / walls["auto_TemperedLB"].get<double>();
    const double overhead = total("amt_even") / total("spmd_even");
    const double every = total("spmd") / total("every_TemperedLB");
    const double update_overhead =
        samples.at("amt_even").median_of("update_max_s") / samples.at("spmd_even").median_of("update_max_s");
    const nlohmann::ordered_json out = {
        {"benchmark", "pic"},
        {"time_to_solution_speedup", tts},
        {"balanced_bound_speedup", bound},
        {"time_to_solution_overhead", overhead},
        {"lb_every_phase_speedup", {{"TemperedLB", every}}},
        {"lb_every_phase_balanced_bound", {{"TemperedLB", total("spmd") / balanced_total(samples.at("every_TemperedLB"))}}},
        {"auto_balancings_in_50_phases", still},
        {"auto_mean_imbalance_particles", drifting_imbalance},
        {"split_merge", split_merge},
        {"trace_cost", trace_cost},
        {"trace_cost_mpirun_wall", trace_cost_wall},
        {"total_s_median", {{"spmd", total("spmd")}, {"TemperedLB", total("auto_TemperedLB")}, {"spmd_even", total("spmd_even")},
                            {"amt_even", total("amt_even")}}},
        {"init_s_median", {{"spmd", samples.at("spmd").median_of("init_s")}, {"TemperedLB", samples.at("auto_TemperedLB").median_of("init_s")}}},
        {"mpirun_wall_s", walls},
        {"amt_overhead_ratio", update_overhead},
        {"speedup", speedup},
        {"modeled_speedup_8_ranks", modeled},
        {"ideal_speedup", samples.at("spmd").median_of("update_max_s") / samples.at("spmd").median_of("update_avg_s")},
        {"second_input", second_input},
        {"ideal_speedup_second_input",
         samples.at("spmd_second").median_of("update_max_s") / samples.at("spmd_second").median_of("update_avg_s")},
        {"time_to_solution_speedup_second_input", second},
        {"particles", particles},
        {"trials", trials},
        {"hosts", samples.at("spmd").reports.front().value("hosts", 1)},
        {"ranks", samples.at("spmd").reports.front().value("ranks", 2)},
        {"tempered_args", tempered_args}};
    if (report == "text") {
      for (const char* lb : kBalancers)
        fmt::print("{:<12} time to solution {:.2f}x SPMD (interval auto); particle update {:.2f}x; "
                   "with its update balanced {:.2f}x\n",
                   lb, tts[lb].get<double>(), speedup[lb].get<double>(), bound[lb].get<double>());
      for (const char* lb : kBalancers)
        fmt::print("{:<12} time to solution {:.2f}x SPMD on the second input ({})\n", lb, second[lb].get<double>(),
                   second_input);
      fmt::print("TemperedLB every phase: time to solution {:.2f}x SPMD; with its update balanced {:.2f}x\n", every,
                 out["lb_every_phase_balanced_bound"]["TemperedLB"].get<double>());
      for (const auto& [input, args] : still_inputs)
        for (const char* lb : kStillBalancers)
          fmt::print("{:<12} at auto balances {} time(s) in {} phases of {}\n", lb, still[input][lb].get<double>(),
                     kStillSteps, input);
      fmt::print("TemperedLB split/merge ({}): mean I after balancing {:.4f} (whole colors {:.4f}, measured loads "
                 "{:.4f}); time to solution {:.2f}x SPMD, {:.3f} of the balanced bound\n",
                 kSplitMergeArgs, split_merge["mean_imbalance_after_lb"].get<double>(),
                 split_merge["mean_imbalance_after_lb_whole_colors"].get<double>(),
                 split_merge["mean_imbalance_after_lb_measured_loads"].get<double>(), split_speedup,
                 split_merge["fraction_of_balanced_bound"].get<double>());
      fmt::print("TemperedLB traced: time to solution {:.3f}x untraced (whole mpirun {:.3f}x)\n", trace_cost,
                 trace_cost_wall);
      fmt::print("AMT without LB, whole grid: time to solution {:.3f}x SPMD, update {:.3f}x\n", overhead, update_overhead);
    } else {
      fmt::print("{}\n", out.dump());
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "tessera-bench-pic: {}\n", e.what());
    return 1;
  }
  return 0;
}
