// tessera-bench-lulesh: tessera-lulesh (LULESH 2.0 with its domains as migratable colors) against
// itself and against the original LULESH, by running the executables and reading what each prints
// at its end. Every figure is a median over --trials rounds; each round runs every configuration
// once, so slow moments of the machine spread over all of them (runs interleaved).
//
// Two clocks, both reported for every run:
//   elapsed    (inner) tessera-lulesh's elapsed_s: first cycle to the verified end, the slowest
//              rank, wall clock. For the original, its printed elapsed time (also first cycle to
//              the end; read from the 8-digit "( E overall)" of its Grind time line).
//   whole      (end-to-end) the whole process as the benchmark sees it, fork() to wait4():
//              process start-up, mpirun and its daemons, MPI_Init and MPI_Finalize, runtime and
//              collection set-up (tessera-lulesh's init_s, reported separately), the original's
//              mesh set-up, verification output and exit.
// Outside every figure: the recording run of the advisor and `lbsim advise` itself (advise_s and
// recording_elapsed_s are reported but enter no ratio), the benchmark's own process handling, and
// the reading and parsing of output.
//
// Runs (G = --global_edge, R = --ranks, -i --cycles when given; LULESH's defaults -r 11 -b 1 -c 1
// unless named):
//   kernel         tessera-lulesh --domains 1 -s G, 1 rank, run directly (an Open MPI singleton)
//   colors27_1rank tessera-lulesh --domains 27 -s G/3, 1 rank, directly
//   uniform_1rank, uniform_Rranks  --domains 27 -s G/3 -r 1 under mpirun -np 1 and -np R
//   uniform_copies R copies of uniform_1rank at once (R mpiruns of -np 1); its sample is the slowest
//   <input>_nolb, <input>_<LB>     --domains 27 -s G/3 on R ranks, without a balancer and with each
//                  of --balancers at --tessera_lb_interval=auto; inputs: defaults, and b4c2 (-b 4 -c 2)
//   <input>_serial, _omp, _mpi, _ampi_lb, _ampi_nolb  the original from --reference DIR, same
//                  -b/-c: lulesh-serial -s G; lulesh-omp -s G with OMP_NUM_THREADS=R; lulesh-mpi
//                  -s G/2 on 8 ranks (mpirun --oversubscribe --mca mpi_yield_when_idle 1); and
//                  lulesh-ampi +pR +vp27 -s G/3 with LULESH_LB_FREQ=50 +balancer DistributedLB, and
//                  without both. A binary missing from DIR: its rows are "not run" (text), null in
//                  the JSON, and the binary is listed in "reference_missing".
//   advisor        defaults input on R ranks with the --tessera_lb_* flags of the top row of
//                  `lbsim advise --report=json` over LB data of one more defaults no-LB run
//                  (--tessera_lb_data, recorded once before the rounds)
// Figures (targets in parentheses):
//   1 kernel_parity    grind_ratio: tessera / original grind time, us per zone per cycle, kernel vs
//                      defaults_serial (<= 1.05); rss_ratio: peak resident bytes per zone
//                      (wait4's ru_maxrss of each direct run / G^3, whole process, so it carries
//                      the fixed resident cost of the MPI and runtime libraries, tens of MB, which
//                      dominates at small edges; it means something at edge 30 and up) (<= 1.2)
//   2 price_of_colors  colors27_1rank / kernel elapsed (<= 1.10)
//   3 uniform          speedup uniform_1rank / uniform_Rranks elapsed (>= 1.85); beside it the
//                      machine's ceiling: 27 / ceil(27 / R) over copies_slowdown, the slowest of
//                      uniform_copies (R copies of uniform_1rank started at once) over uniform_1rank
//   4 imbalanced[input]  per balancer: speedup_over_no_lb; fraction_of_balanced_bound = the no-LB
//                      run's balanced_bound_s (its elapsed less the sum over cycles of the busiest
//                      rank's color load over the average rank's: each cycle's work spread
//                      perfectly) / the balancer's elapsed (>= 0.9); speedup_over_best_original =
//                      min(mpi, omp elapsed) / the best balancer's elapsed (>= 1.0);
//                      speedup_over_ampi = min(ampi_lb, ampi_nolb) / the same (>= 1.1);
//                      answers_match: every original row's iteration count and printed origin
//                      energy equal tessera-lulesh's (printed %12.6e)
//   5 verification     every tessera-lulesh run of one domain count gives the same
//                      final_origin_energy_hex, total_energy_hex and iteration count, whatever its
//                      ranks, balancer or region input; without --cycles and with G 30 (10) every
//                      run gives 932 (231) cycles, origin energy 2.025075e+05 (2.720531e+04) and
//                      symmetry figures <= 1e-8 (edge 10's answer is coded, but 10 is not a
//                      multiple of 6). Any failure: listed, and exit status 1
//   6 advisor          advisor_over_best: advisor elapsed / the best balancer's, defaults (<= 1.05)
// A run that fails or prints no summary stops the benchmark with exit status 1.
#include "lulesh_bench_process.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using lulesh_bench::median;
using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Config {
  std::string name;
  std::string label;
  std::string command;
  bool tessera = true;  // prints the JSON line; else the original's summary
  int copies = 1;       // run this many at once; the round's sample is the slowest copy
};

// One configuration's rounds.
struct Samples {
  std::vector<nlohmann::json> reports;                  // tessera-lulesh
  std::vector<lulesh_bench::OriginalSummary> originals;  // the original
  std::vector<double> walls, rss;
  double of(const char* key) const {
    std::vector<double> v;
    for (const auto& r : reports) v.push_back(r.at(key).get<double>());
    return median(v);
  }
  double elapsed() const {
    if (!reports.empty()) return of("elapsed_s");
    std::vector<double> v;
    for (const auto& o : originals) v.push_back(o.elapsed_s);
    return median(v);
  }
  double wall() const { return median(walls); }
};

struct Input {
  std::string name, args, label;
};

struct Bench {
  std::string mpirun, lulesh, lbsim, reference;
  int edge = 30, ranks = 2, cycles = 0;

  std::string cycles_flag() const { return cycles > 0 ? fmt::format(" -i {}", cycles) : ""; }
  // tessera-lulesh on `domains` colors (a cube) of the global edge, directly when np is 0.
  std::string tessera(int np, int domains, const std::string& args) const {
    const int side = static_cast<int>(std::lround(std::cbrt(domains)));
    const std::string app = fmt::format("{} -q --domains {} -s {}{} {} --report=json", quote(lulesh), domains,
                                        edge / side, cycles_flag(), args);
    return lulesh_bench::exec_command("", np == 0 ? app : fmt::format("{} -np {} {}", mpirun, np, app));
  }
  std::string ref(const std::string& binary) const { return (fs::path(reference) / binary).string(); }
  bool has(const std::string& binary) const {
    return !reference.empty() && ::access(ref(binary).c_str(), X_OK) == 0;
  }
};

// Runs `c` once (its copies at once, each from its own thread) and returns the slowest copy.
lulesh_bench::Process run_copies(const Config& c) {
  if (c.copies == 1) return lulesh_bench::run_process(c.command);
  std::vector<lulesh_bench::Process> done(static_cast<std::size_t>(c.copies));
  std::vector<std::string> errors(done.size());
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < done.size(); ++i)
      threads.emplace_back([&, i] {
        try {
          done[i] = lulesh_bench::run_process(c.command);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
  }
  for (const std::string& e : errors)
    if (!e.empty()) throw std::runtime_error(e);
  // A failed copy, or one without a summary, is the round's sample: run_once reports it.
  const auto elapsed = [](const lulesh_bench::Process& p) -> std::optional<double> {
    const auto report = lulesh_bench::last_json(p.output);
    if (!p.ok() || !report || !report->contains("elapsed_s")) return std::nullopt;
    return report->at("elapsed_s").get<double>();
  };
  std::size_t slowest = 0;
  for (std::size_t i = 0; i < done.size(); ++i) {
    if (!elapsed(done[i])) return done[i];
    if (*elapsed(done[i]) > *elapsed(done[slowest])) slowest = i;
  }
  return done[slowest];
}

// Runs `c` once and adds it to `s`; throws when it fails or prints no summary.
void run_once(const Config& c, Samples& s, int trial, int trials) {
  const lulesh_bench::Process p = run_copies(c);
  const auto tail = [&] { return p.output.size() > 6000 ? "..." + p.output.substr(p.output.size() - 6000) : p.output; };
  if (!p.ok())
    throw std::runtime_error(fmt::format("{} failed (status {}):\n{}", c.command,
                                         WIFEXITED(p.status) ? WEXITSTATUS(p.status) : 128 + WTERMSIG(p.status), tail()));
  if (c.tessera) {
    const auto report = lulesh_bench::last_json(p.output);
    if (!report || !report->contains("elapsed_s"))
      throw std::runtime_error(fmt::format("{}: no JSON summary line in:\n{}", c.command, tail()));
    s.reports.push_back(*report);
  } else {
    try {
      s.originals.push_back(lulesh_bench::parse_original(p.output));
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}: {}:\n{}", c.command, e.what(), tail()));
    }
  }
  s.walls.push_back(p.wall_s);
  s.rss.push_back(p.max_rss_bytes);
  fmt::print(stderr, "tessera-bench-lulesh: round {}/{} {:<24} elapsed {:9.3f} s, whole process {:9.3f} s\n", trial + 1,
             trials, c.name, c.tessera ? s.reports.back().at("elapsed_s").get<double>() : s.originals.back().elapsed_s,
             p.wall_s);
}

// A row of the text table.
struct Row {
  std::string label;
  std::optional<double> elapsed, wall, ratio;
  std::string target;
  std::optional<bool> met;
  std::string note;
  bool not_run = false;
};

std::string cell(const std::optional<double>& v, int precision) {
  return v ? fmt::format("{:.{}f}", *v, precision) : std::string("-");
}

void print_table(const std::vector<Row>& rows) {
  fmt::print("{:<58} {:>10} {:>10} {:>8} {:>8} {:>4}  {}\n", "configuration", "elapsed_s", "whole_s", "ratio", "target",
             "met", "notes");
  for (const Row& r : rows) {
    if (r.not_run) {
      fmt::print("{:<58} {:>10}  {}\n", r.label, "not run", r.note);
      continue;
    }
    fmt::print("{:<58} {:>10} {:>10} {:>8} {:>8} {:>4}  {}\n", r.label, cell(r.elapsed, 3), cell(r.wall, 3),
               cell(r.ratio, 3), r.target, r.met ? (*r.met ? "yes" : "NO") : "", r.note);
  }
}

ojson or_null(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera-bench-lulesh: tessera-lulesh's colors, ranks and balancers against the original LULESH",
               "tessera-bench-lulesh"};
  std::string report = "text";
  Bench bench{TESSERA_BENCH_MPIRUN, TESSERA_LULESH_BINARY, TESSERA_LBSIM_BINARY, ""};
  int trials = 3;
  bool skip_kernel = false;
  std::vector<std::string> balancers = {"GreedyLB", "HierLB", "GrapevineLB", "TemperedLB"};
  app.add_option("--global_edge", bench.edge, "elements along each edge of the whole mesh (divisible by 6)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--ranks", bench.ranks, "MPI ranks of the multi-rank runs (and OpenMP threads, AMPI PEs)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--trials", trials, "rounds; every figure is the median over them")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  app.add_option("--cycles", bench.cycles, "-i of every run (0: run to the problem's end)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--balancers", balancers, "balancers of the imbalanced runs, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--reference", bench.reference,
                 "directory of the original's binaries (lulesh-serial, lulesh-omp, lulesh-mpi, lulesh-ampi); "
                 "rows of a missing binary are not run");
  app.add_flag("--skip_kernel", skip_kernel, "skip figures 1 and 2 (the direct one-rank runs)");
  app.add_option("--lbsim", bench.lbsim, "the lbsim binary (lbsim advise)")->capture_default_str();
  app.add_option("--report", report, "text or json (one JSON object, last line)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (bench.edge % 6 != 0) {
    fmt::print(stderr, "--global_edge {}: expected a multiple of 6 (1, 8 and 27 domains divide it)\n", bench.edge);
    return 2;
  }
  if (balancers.empty()) {
    fmt::print(stderr, "--balancers: expected at least one balancer\n");
    return 2;
  }
  const int G = bench.edge, R = bench.ranks;

  // The configurations.
  const std::vector<Input> inputs = {{"defaults", "", "defaults"}, {"b4c2", "-b 4 -c 2", "-b 4 -c 2"}};
  std::vector<Config> configs;
  if (!skip_kernel) {
    configs.push_back({"kernel", fmt::format("kernel: 1 color -s {}, 1 rank (direct)", G), bench.tessera(0, 1, "")});
    configs.push_back(
        {"colors27_1rank", fmt::format("colors: 27 colors -s {}, 1 rank (direct)", G / 3), bench.tessera(0, 27, "")});
    // The fixed resident cost (libraries, MPI, the runtime): one element, one cycle.
    configs.push_back({"kernel_base", "", lulesh_bench::exec_command("", quote(bench.lulesh) +
                                                                             " -q --domains 1 -s 1 -i 1 --report=json")});
  }
  configs.push_back({"uniform_1rank", "uniform -r 1: 27 colors, 1 rank", bench.tessera(1, 27, "-r 1")});
  configs.push_back({"uniform_Rranks", fmt::format("uniform -r 1: 27 colors, {} ranks", R), bench.tessera(R, 27, "-r 1")});
  // The machine's own ceiling: R independent copies of the 1-rank run at once share the caches,
  // memory and hypervisor as R ranks do, with no communication at all.
  configs.push_back({"uniform_copies", fmt::format("uniform -r 1: {} independent 1-rank runs at once", R),
                     bench.tessera(1, 27, "-r 1"), true, R});
  std::vector<std::string> missing;
  for (const char* b : {"lulesh-serial", "lulesh-omp", "lulesh-mpi", "lulesh-ampi"})
    if (!bench.has(b)) missing.push_back(b);
  const auto original = [&](const std::string& binary, const std::string& env, const std::string& launch,
                            const std::string& args) {
    return lulesh_bench::exec_command(env, fmt::format("{}{} {}{}", launch, quote(bench.ref(binary)), args,
                                                       bench.cycles_flag()));
  };
  for (const Input& in : inputs) {
    configs.push_back({in.name + "_nolb", fmt::format("{}: 27 colors, {} ranks, no LB", in.label, R),
                       bench.tessera(R, 27, in.args)});
    for (const std::string& lb : balancers)
      configs.push_back({in.name + "_" + lb, fmt::format("{}: 27 colors, {} ranks, {}", in.label, R, lb),
                         bench.tessera(R, 27, fmt::format("{} --tessera_lb_name={} --tessera_lb_interval=auto",
                                                          in.args, lb))});
    const std::string a = in.args.empty() ? "" : " " + in.args;
    if (bench.has("lulesh-serial"))
      configs.push_back({in.name + "_serial", "", original("lulesh-serial", "", "", fmt::format("-s {}{}", G, a)), false});
    if (bench.has("lulesh-serial") && in.name == "defaults" && !skip_kernel)
      configs.push_back({"serial_base", "",
                         lulesh_bench::exec_command("", quote(bench.ref("lulesh-serial")) + " -s 1 -i 1"), false});
    if (bench.has("lulesh-omp"))
      configs.push_back({in.name + "_omp", "",
                         original("lulesh-omp", fmt::format("OMP_NUM_THREADS={}", R), "", fmt::format("-s {}{}", G, a)),
                         false});
    if (bench.has("lulesh-mpi"))
      configs.push_back({in.name + "_mpi", "",
                         original("lulesh-mpi", "", bench.mpirun + " --mca mpi_yield_when_idle 1 -np 8 ",
                                  fmt::format("-s {}{}", G / 2, a)),
                         false});
    if (bench.has("lulesh-ampi")) {
      configs.push_back({in.name + "_ampi_lb", "",
                         original("lulesh-ampi", "LULESH_LB_FREQ=50", "",
                                  fmt::format("+p{} +vp27 -s {}{} +balancer DistributedLB", R, G / 3, a)),
                         false});
      configs.push_back({in.name + "_ampi_nolb", "",
                         original("lulesh-ampi", "-u LULESH_LB_FREQ", "", fmt::format("+p{} +vp27 -s {}{}", R, G / 3, a)),
                         false});
    }
  }

  std::map<std::string, Samples> samples;
  ojson advisor;
  const fs::path work = fs::temp_directory_path() / fmt::format("tessera-bench-lulesh-{}", ::getpid());
  try {
    // The advisor: record one defaults no-LB run, advise, and add its top choice to the rounds.
    fs::remove_all(work);
    fs::create_directories(work / "data");
    const Config record{"advisor_recording", "",
                        bench.tessera(R, 27, "--tessera_lb_data --tessera_lb_data_dir=" + quote((work / "data").string()))};
    run_once(record, samples[record.name], 0, 1);
    const std::string advise_command = lulesh_bench::exec_command(
        "", fmt::format("{} advise --data {} --report=json", quote(bench.lbsim), quote((work / "data" / "data").string())));
    const lulesh_bench::Process advised = lulesh_bench::run_process(advise_command);
    const auto advice = lulesh_bench::last_json(advised.output);
    if (!advised.ok() || !advice || advice->value("rows", nlohmann::json::array()).empty())
      throw std::runtime_error(fmt::format("{} failed:\n{}", advise_command, advised.output));
    const nlohmann::json& top = advice->at("rows").front();
    const std::string flags = top.at("flags").get<std::string>();
    advisor["advisor_top_choice"] = flags.empty() ? "no LB" : flags;
    advisor["advisor_flags"] = flags;
    advisor["predicted_gain"] = top.value("gain", 0.0);
    advisor["advise_s"] = advised.wall_s;
    advisor["recording_elapsed_s"] = samples[record.name].elapsed();
    configs.push_back({"advisor", fmt::format("defaults: 27 colors, {} ranks, advisor's choice", R),
                       bench.tessera(R, 27, flags)});

    for (int t = 0; t < trials; ++t)
      for (const Config& c : configs) run_once(c, samples[c.name], t, trials);
  } catch (const std::exception& e) {
    fs::remove_all(work);
    fmt::print(stderr, "tessera-bench-lulesh: {}\n", e.what());
    return 1;
  }
  fs::remove_all(work);

  const auto has = [&](const std::string& name) { return samples.count(name) > 0; };
  const auto el = [&](const std::string& name) { return samples.at(name).elapsed(); };
  const auto wall = [&](const std::string& name) { return samples.at(name).wall(); };
  std::vector<Row> rows;
  std::vector<std::string> failures;
  const double zones = static_cast<double>(G) * G * G;

  // 5. Verification first: every tessera-lulesh run of one domain count gives the same answer.
  std::map<std::int64_t, std::map<std::string, std::vector<std::string>>> by_hex;
  std::int64_t iterations = -1;
  double energy = 0.0, max_abs = 0.0, total_abs = 0.0, max_rel = 0.0;
  const bool published = bench.cycles == 0 && (G == 30 || G == 10);
  for (const auto& [name, s] : samples)
    for (std::size_t t = 0; t < s.reports.size() && name != "kernel_base"; ++t) {  // the base is another problem
      const nlohmann::json& r = s.reports[t];
      const std::string who = fmt::format("{} (round {})", name, t + 1);
      by_hex[r.at("domains").get<std::int64_t>()][fmt::format(
          "origin {} total {} cycles {}", r.at("final_origin_energy_hex").get<std::string>(),
          r.at("total_energy_hex").get<std::string>(), r.at("iterations").get<std::int64_t>())]
          .push_back(who);
      max_abs = std::max(max_abs, r.at("max_abs_diff").get<double>());
      total_abs = std::max(total_abs, r.at("total_abs_diff").get<double>());
      max_rel = std::max(max_rel, r.at("max_rel_diff").get<double>());
      if (r.at("domains").get<std::int64_t>() == 27 && iterations < 0) {
        iterations = r.at("iterations").get<std::int64_t>();
        energy = r.at("final_origin_energy").get<double>();
      }
      const std::string lb = name.substr(name.find('_') + 1);
      if (std::find(balancers.begin(), balancers.end(), lb) != balancers.end() && r.value("balancer", "") != lb)
        failures.push_back(fmt::format("{} reports balancer \"{}\"", who, r.value("balancer", "")));
      if (published) {
        const std::int64_t want_cycles = G == 30 ? 932 : 231;
        const std::string want_energy = G == 30 ? "2.025075e+05" : "2.720531e+04";
        const std::string got = fmt::format("{:12.6e}", r.at("final_origin_energy").get<double>());
        if (r.at("iterations").get<std::int64_t>() != want_cycles || got != want_energy)
          failures.push_back(fmt::format("{}: {} cycles, origin energy {}; LULESH's published answer is {} and {}", who,
                                         r.at("iterations").get<std::int64_t>(), got, want_cycles, want_energy));
        for (const char* key : {"max_abs_diff", "total_abs_diff", "max_rel_diff"})
          if (!(r.at(key).get<double>() <= 1e-8))
            failures.push_back(fmt::format("{}: {} {:.3e} above 1e-8", who, key, r.at(key).get<double>()));
      }
    }
  ojson hexes = ojson::object();
  bool identical = true;
  for (const auto& [domains, answers] : by_hex) {
    hexes[std::to_string(domains)] = answers.begin()->first;
    if (answers.size() > 1) {
      identical = false;
      for (const auto& [answer, runs] : answers)
        failures.push_back(fmt::format("{} domains: {} from {}", domains, answer, fmt::join(runs, ", ")));
    }
  }
  const std::string printed_energy = fmt::format("{:12.6e}", energy);

  // 1. Kernel parity.
  ojson kernel = nullptr;
  if (!skip_kernel) {
    const Samples& k = samples.at("kernel");
    kernel = ojson{{"tessera", {{"elapsed_s", el("kernel")},
                                {"whole_process_s", wall("kernel")},
                                {"grind_us", k.of("grind_us_per_zone_cycle")},
                                {"rss_bytes_per_zone", median(k.rss) / zones}}}};
    std::optional<double> grind, rss;
    if (has("defaults_serial")) {
      const Samples& o = samples.at("defaults_serial");
      std::vector<double> g;
      for (const auto& s : o.originals) g.push_back(s.grind_us);
      grind = k.of("grind_us_per_zone_cycle") / median(g);
      rss = median(k.rss) / median(o.rss);
      // What each zone adds above the fixed resident cost of each program (its -s 1 run).
      const double k_zone = (median(k.rss) - median(samples.at("kernel_base").rss)) / zones;
      const double o_zone = (median(o.rss) - median(samples.at("serial_base").rss)) / zones;
      kernel["marginal_rss_bytes_per_zone"] = {{"tessera", k_zone}, {"original", o_zone}, {"ratio", k_zone / o_zone}};
      kernel["fixed_rss_bytes"] = {{"tessera", median(samples.at("kernel_base").rss)},
                                   {"original", median(samples.at("serial_base").rss)}};
      kernel["original"] = {{"elapsed_s", el("defaults_serial")},
                            {"whole_process_s", wall("defaults_serial")},
                            {"grind_us", median(g)},
                            {"rss_bytes_per_zone", median(o.rss) / zones}};
    } else {
      kernel["original"] = nullptr;
    }
    kernel["grind_ratio"] = or_null(grind);
    kernel["grind_target"] = 1.05;
    kernel["grind_met"] = grind ? ojson(*grind <= 1.05) : ojson(nullptr);
    kernel["rss_ratio"] = or_null(rss);
    kernel["rss_target"] = 1.2;
    kernel["rss_met"] = rss ? ojson(*rss <= 1.2) : ojson(nullptr);
    rows.push_back({fmt::format("kernel: tessera 1 color -s {}, 1 rank", G), el("kernel"), wall("kernel"), grind,
                    "<=1.05", grind ? std::optional<bool>(*grind <= 1.05) : std::nullopt,
                    "ratio: grind time / original serial"});
    if (has("defaults_serial")) {
      rows.push_back({fmt::format("kernel: original lulesh-serial -s {}", G), el("defaults_serial"),
                      wall("defaults_serial"), {}, "", {}, ""});
      rows.push_back({"kernel: peak RSS per zone, tessera / original", {}, {}, rss, "<=1.2", *rss <= 1.2,
                      fmt::format("{:.0f} / {:.0f} bytes per zone (whole process)", median(k.rss) / zones,
                                  median(samples.at("defaults_serial").rss) / zones)});
      rows.push_back({"kernel: RSS per zone above each program's -s 1 run", {}, {},
                      kernel["marginal_rss_bytes_per_zone"]["ratio"].get<double>(), "", {},
                      fmt::format("{:.0f} / {:.0f} bytes per zone; fixed {:.1f} / {:.1f} MB",
                                  kernel["marginal_rss_bytes_per_zone"]["tessera"].get<double>(),
                                  kernel["marginal_rss_bytes_per_zone"]["original"].get<double>(),
                                  median(samples.at("kernel_base").rss) / 1e6, median(samples.at("serial_base").rss) / 1e6)});
    } else {
      rows.push_back({"kernel: original lulesh-serial", {}, {}, {}, "", {}, "(no lulesh-serial in --reference)", true});
    }
  }

  // 2. Price of colors.
  ojson colors = nullptr;
  if (!skip_kernel) {
    const double ratio = el("colors27_1rank") / el("kernel");
    colors = {{"one_color_elapsed_s", el("kernel")},      {"one_color_whole_s", wall("kernel")},
              {"colors27_elapsed_s", el("colors27_1rank")}, {"colors27_whole_s", wall("colors27_1rank")},
              {"ratio", ratio},                            {"whole_ratio", wall("colors27_1rank") / wall("kernel")},
              {"target", 1.10},                            {"met", ratio <= 1.10}};
    rows.push_back({fmt::format("colors: 27 colors -s {}, 1 rank", G / 3), el("colors27_1rank"), wall("colors27_1rank"),
                    ratio, "<=1.10", ratio <= 1.10, "ratio: elapsed / 1 color"});
  }

  // 3. Uniform work. The ceiling is what R ranks could reach with no communication and no idle
  // time: the busiest rank's share of the 27 colors, slowed as much as R independent copies of
  // the 1-rank run slow each other on this machine.
  const double uniform_speedup = el("uniform_1rank") / el("uniform_Rranks");
  const double busiest_share = std::ceil(27.0 / R) / 27.0;
  const double copies_slowdown = el("uniform_copies") / el("uniform_1rank");
  const double ceiling = 1.0 / (busiest_share * copies_slowdown);
  const ojson uniform = {{"one_rank_elapsed_s", el("uniform_1rank")},
                         {"one_rank_whole_s", wall("uniform_1rank")},
                         {"ranks_elapsed_s", el("uniform_Rranks")},
                         {"ranks_whole_s", wall("uniform_Rranks")},
                         {"speedup", uniform_speedup},
                         {"whole_speedup", wall("uniform_1rank") / wall("uniform_Rranks")},
                         {"copies_elapsed_s", el("uniform_copies")},
                         {"copies_slowdown", copies_slowdown},
                         {"ceiling_speedup", ceiling},
                         {"fraction_of_ceiling", uniform_speedup / ceiling},
                         {"target", 1.85},
                         {"met", uniform_speedup >= 1.85}};
  rows.push_back({"uniform -r 1: 27 colors, 1 rank (mpirun)", el("uniform_1rank"), wall("uniform_1rank"), {}, "", {}, ""});
  rows.push_back({fmt::format("uniform -r 1: {} independent 1-rank runs at once", R), el("uniform_copies"),
                  wall("uniform_copies"), ceiling, "", {},
                  fmt::format("ratio: ceiling speedup (busiest rank {}/27 colors, copies {:.3f}x slower)",
                              static_cast<int>(std::ceil(27.0 / R)), copies_slowdown)});
  rows.push_back({fmt::format("uniform -r 1: 27 colors, {} ranks", R), el("uniform_Rranks"), wall("uniform_Rranks"),
                  uniform_speedup, ">=1.85", uniform_speedup >= 1.85,
                  fmt::format("ratio: speedup over 1 rank ({:.3f} of the ceiling)", uniform_speedup / ceiling)});

  // 4. Imbalanced work.
  ojson imbalanced = ojson::object();
  double defaults_best = 0.0;
  const struct {
    const char* key;
    const char* binary;
    const char* label;
  } kOriginals[] = {{"serial", "lulesh-serial", "original serial -s {G}"},
                    {"omp", "lulesh-omp", "original OpenMP {R} threads -s {G}"},
                    {"mpi", "lulesh-mpi", "original MPI 8 ranks -s {G2}"},
                    {"ampi_lb", "lulesh-ampi", "original AMPI +p{R} +vp27, DistributedLB/50"},
                    {"ampi_nolb", "lulesh-ampi", "original AMPI +p{R} +vp27, no LB"}};
  for (const Input& in : inputs) {
    const std::string nolb = in.name + "_nolb";
    const auto run_json = [&](const std::string& name) {
      const Samples& s = samples.at(name);
      return ojson{{"elapsed_s", el(name)},
                   {"whole_process_s", wall(name)},
                   {"balancings", s.of("balancings")},
                   {"migrations", s.of("migrations")},
                   {"mean_imbalance", s.of("mean_imbalance")},
                   {"imbalance_s", s.of("imbalance_s")},
                   {"balancing_s", s.of("balancing_s")},
                   {"balanced_bound_s", s.of("balanced_bound_s")}};
    };
    const auto stats = [&](const std::string& name) {
      const Samples& s = samples.at(name);
      return fmt::format("{:.0f} balancings, {:.0f} migrations, mean imbalance {:.3f}", s.of("balancings"),
                         s.of("migrations"), s.of("mean_imbalance"));
    };
    ojson out = {{"args", in.args}, {"no_lb", run_json(nolb)}};
    const double bound = samples.at(nolb).of("balanced_bound_s");
    rows.push_back({fmt::format("{}: 27 colors, {} ranks, no LB", in.label, R), el(nolb), wall(nolb), {}, "", {},
                    fmt::format("{}; balanced bound {:.3f} s", stats(nolb), bound)});
    std::string best;
    for (const std::string& lb : balancers) {
      const std::string name = in.name + "_" + lb;
      ojson row = run_json(name);
      const double fraction = bound / el(name);
      row["fraction_of_balanced_bound"] = fraction;
      row["fraction_target"] = 0.9;
      row["met"] = fraction >= 0.9;
      row["speedup_over_no_lb"] = el(nolb) / el(name);
      row["whole_speedup_over_no_lb"] = wall(nolb) / wall(name);
      out["balancers"][lb] = row;
      if (best.empty() || el(name) < el(in.name + "_" + best)) best = lb;
      rows.push_back({fmt::format("{}: 27 colors, {} ranks, {}", in.label, R, lb), el(name), wall(name), fraction,
                      ">=0.9", fraction >= 0.9,
                      fmt::format("ratio: no-LB balanced bound / elapsed; {:.2f}x no LB; {}", el(nolb) / el(name),
                                  stats(name))});
    }
    const double best_s = el(in.name + "_" + best);
    if (in.name == "defaults") defaults_best = best_s;
    out["best_balancer"] = best;
    out["best_elapsed_s"] = best_s;
    ojson reference = ojson::object();
    std::optional<double> best_original, best_ampi;
    std::optional<bool> match;
    for (const auto& o : kOriginals) {
      const std::string name = in.name + "_" + o.key;
      const std::string label = in.label + ": " + fmt::format(fmt::runtime(o.label), fmt::arg("G", G),
                                                              fmt::arg("G2", G / 2), fmt::arg("R", R));
      if (!has(name)) {
        reference[o.key] = nullptr;
        rows.push_back({label, {}, {}, {}, "", {}, fmt::format("(no {} in --reference)", o.binary), true});
        continue;
      }
      const auto& first = samples.at(name).originals.front();
      bool same = true;
      for (const auto& s : samples.at(name).originals)
        same = same && s.iterations == iterations && s.origin_energy == printed_energy;
      match = match.value_or(true) && same;
      reference[o.key] = {{"elapsed_s", el(name)},
                          {"whole_process_s", wall(name)},
                          {"iterations", first.iterations},
                          {"final_origin_energy", first.origin_energy},
                          {"answer_matches", same}};
      if (std::string(o.key) == "omp" || std::string(o.key) == "mpi")
        best_original = std::min(best_original.value_or(el(name)), el(name));
      if (std::string(o.key).starts_with("ampi")) best_ampi = std::min(best_ampi.value_or(el(name)), el(name));
      rows.push_back({label, el(name), wall(name), {}, "", {},
                      fmt::format("{} cycles, origin energy {}{}", first.iterations, first.origin_energy,
                                  same ? "" : " (DIFFERS from tessera-lulesh)")});
    }
    out["reference"] = reference;
    const auto speedup = [&](const std::optional<double>& over) {
      return over ? std::optional<double>(*over / best_s) : std::nullopt;
    };
    const auto orig = speedup(best_original), ampi = speedup(best_ampi);
    out["speedup_over_best_original"] = or_null(orig);
    out["speedup_over_best_original_target"] = 1.0;
    out["speedup_over_best_original_met"] = orig ? ojson(*orig >= 1.0) : ojson(nullptr);
    out["speedup_over_ampi"] = or_null(ampi);
    out["speedup_over_ampi_target"] = 1.1;
    out["speedup_over_ampi_met"] = ampi ? ojson(*ampi >= 1.1) : ojson(nullptr);
    out["answers_match"] = match ? ojson(*match) : ojson(nullptr);
    if (orig)
      rows.push_back({fmt::format("{}: best tessera ({}) over best of MPI, OpenMP", in.label, best), best_s,
                      wall(in.name + "_" + best), orig, ">=1.0", *orig >= 1.0, "ratio: speedup"});
    if (ampi)
      rows.push_back({fmt::format("{}: best tessera ({}) over best AMPI", in.label, best), best_s,
                      wall(in.name + "_" + best), ampi, ">=1.1", *ampi >= 1.1, "ratio: speedup"});
    imbalanced[in.name] = out;
  }

  // 6. The advisor.
  const double over_best = el("advisor") / defaults_best;
  advisor["advisor_elapsed_s"] = el("advisor");
  advisor["advisor_whole_s"] = wall("advisor");
  advisor["best_balancer_elapsed_s"] = defaults_best;
  advisor["advisor_over_best"] = over_best;
  advisor["target"] = 1.05;
  advisor["met"] = over_best <= 1.05;
  rows.push_back({fmt::format("defaults: 27 colors, {} ranks, advisor's choice", R), el("advisor"), wall("advisor"),
                  over_best, "<=1.05", over_best <= 1.05,
                  fmt::format("ratio: / best balancer; {}", advisor["advisor_top_choice"].get<std::string>())});

  ojson conditions = {{"ranks", R},
                      {"global_edge", G},
                      {"trials", trials},
                      {"cycles", bench.cycles},
                      {"balancers", balancers},
                      {"reference", bench.reference},
                      {"mpirun", bench.mpirun}};
  const ojson machine = lulesh_bench::machine();
  for (const auto& [key, value] : machine.items()) conditions[key] = value;
  const ojson out = {
      {"benchmark", "lulesh"},
      {"conditions", conditions},
      {"timing",
       {{"elapsed_s", "inner: tessera-lulesh's elapsed_s (first cycle to the verified end, slowest rank, wall) or the "
                      "original's printed elapsed time"},
        {"whole_process_s", "end-to-end: fork to wait4 of the whole process (start-up, mpirun, MPI_Init/Finalize, "
                            "set-up, exit)"}}},
      {"kernel_parity", kernel},
      {"price_of_colors", colors},
      {"uniform", uniform},
      {"imbalanced", imbalanced},
      {"advisor", advisor},
      {"verification",
       {{"bit_identical", identical},
        {"answers", hexes},
        {"iterations", iterations},
        {"final_origin_energy", printed_energy},
        {"published_answer_checked", published},
        {"max_abs_diff", max_abs},
        {"total_abs_diff", total_abs},
        {"max_rel_diff", max_rel},
        {"passed", failures.empty()},
        {"failures", failures}}},
      {"reference_missing", missing}};
  if (report == "text") {
    fmt::print("tessera-bench-lulesh: global edge {}, {} ranks, {} round(s), medians; elapsed = inner (first cycle to "
               "verified end), whole = end-to-end process wall\n\n",
               G, R, trials);
    print_table(rows);
    fmt::print("\nverification: {} cycles, origin energy {}, bit-identical across ranks and balancers: {}{}\n",
               iterations, printed_energy, identical ? "yes" : "NO",
               published ? ", LULESH's published answer checked" : "");
    if (!missing.empty()) fmt::print("reference missing: {}\n", fmt::join(missing, ", "));
  } else {
    fmt::print("{}\n", out.dump());
  }
  if (!failures.empty()) {
    for (const std::string& f : failures) fmt::print(stderr, "tessera-bench-lulesh: verification: {}\n", f);
    return 1;
  }
  return 0;
}
