// tessera-bench-lb-scale: how each balancer's cost and quality grow with the rank count.
//
// For every workload, rank count P and strategy, lbsim's engine runs the strategy on P virtual
// ranks in a child process of its own, so that the child's peak resident memory (wait4's
// ru_maxrss) is that case's alone. Each case reports the imbalance reached, the migrations, the
// messages and bytes each rank sends (the most, and the mean), the rounds on the critical path
// (virtual_backend.hpp), the strategy's own run time, the peak memory, and a modelled wall time on a
// network (lbsim's Network: latency and bandwidth, defaults named and sourced there). Then, for each
// strategy and cost, the exponent b of cost ~ P^b fitted by least squares on log-log over the rank
// counts, and for the per-rank messages also the slope against log2 P (O(log P) growth shows as a
// flat per-log2 P figure and a small exponent).
//
// Workloads (objects scale with P, --objects at the largest P):
//   lognormal  loads lognormal, mean 1 s, variance 1 s^2, on every rank;
//   seed003    seed 003 section V's shape: uniform on [1e-5, 0.1] s, on P / 256 ranks (16 of 4096);
//   hotspot    lognormal as above, and the first P / 64 ranks' objects 8x heavier;
//   tiled      LBAF's nolb-8color-16nodes-11firstphases phase 0 (16 ranks, tests/data/lbaf), repeated.
//
// --report=json prints one JSON object last; --png FILE draws the per-rank messages, bytes, rounds
// and strategy time over P with gnuplot (skipped, with a message, when gnuplot is not installed).

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lbsim/simulation.hpp"
#include "tessera/lbsim/synthetic.hpp"

namespace {

using namespace tessera;
using json = nlohmann::ordered_json;

struct Strategy {
  std::string label;  // as in the tables
  std::string name;
  std::string args;
};

// TemperedLB "by the work model": a memory limit no rank reaches turns the work-model path on
// (propose and admit in work) without changing what is balanced.
const std::vector<Strategy> all_strategies = {
    {"GreedyLB", "GreedyLB", ""},
    {"HierLB", "HierLB", ""},
    {"GrapevineLB", "GrapevineLB", ""},
    {"TemperedLB", "TemperedLB", ""},
    {"TemperedLB-work", "TemperedLB", "alpha=1 memory_limit=1e15"},
};

std::int64_t rss_now_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return 0;
}

std::vector<lb::StrategyInput> workload(const std::string& name, lb::Rank ranks, std::int64_t objects,
                                        const std::string& lbaf_dir) {
  if (name == "tiled") {
    const auto data = lb::read_lb_data(lbaf_dir + "/data/nolb-8color-16nodes-11firstphases/data");
    return lbsim::tile_inputs(lbsim::phase_inputs(data, data.phase_ids().front()), ranks);
  }
  std::string spec = fmt::format("objects={} ranks={} seed=1 ", objects, ranks);
  if (name == "lognormal") spec += fmt::format("mapped={} load=lognormal:1:1", ranks);
  else if (name == "seed003") spec += fmt::format("mapped={} load=uniform:1e-5:1e-1", std::max<lb::Rank>(1, ranks / 256));
  else if (name == "hotspot") spec += fmt::format("mapped={} load=lognormal:1:1 hot={}:8", ranks, std::max<lb::Rank>(1, ranks / 64));
  else throw std::invalid_argument("unknown workload '" + name + "': expected lognormal, seed003, hotspot or tiled");
  return lbsim::phase_inputs(lbsim::make_synthetic(lbsim::parse_synthetic(spec)), 0);
}

// Runs one case in this (child) process and returns its JSON row.
json run_case(const std::string& load, lb::Rank ranks, std::int64_t objects, const Strategy& s,
              const std::string& lbaf_dir, const lbsim::Network& network) {
  const auto inputs = workload(load, ranks, objects, lbaf_dir);
  std::int64_t count = 0;
  for (const auto& rank : inputs) count += static_cast<std::int64_t>(rank.objects.size());
  const std::int64_t input_rss = rss_now_bytes();
  auto strategy = lb::Registry::builtin().create(s.name, s.args);
  const auto result = lbsim::simulate(strategy.get(), inputs, lb::WorkModel{});
  const auto& t = result.traffic;
  const double p = static_cast<double>(ranks);
  return json{{"workload", load},
              {"ranks", ranks},
              {"objects", count},
              {"strategy", s.label},
              {"args", s.args},
              {"initial_imbalance", result.before.imbalance()},
              {"final_imbalance", result.after.imbalance()},
              {"lower_bound_imbalance", result.lower_bound.value_or(0.0)},
              {"stopped_at_lower_bound", result.iterations ? result.iterations->stopped_at_bound : false},
              {"migrations", result.migrations},
              {"messages_per_rank", static_cast<double>(t.messages) / p},
              {"max_messages_sent", t.max_messages_sent},
              {"bytes_per_rank", static_cast<double>(t.bytes) / p},
              {"max_bytes_sent", t.max_bytes_sent},
              {"max_messages_handled", t.max_messages_handled},
              {"max_bytes_handled", t.max_bytes_handled},
              {"busiest_rank", t.busiest_rank},
              {"root_messages_received", t.root_messages_received},
              {"root_bytes_received", t.root_bytes_received},
              {"rounds", t.rounds},
              {"strategy_s", result.strategy_s},
              {"busiest_rank_s", t.busiest_rank_s},
              {"modelled_s", lbsim::modelled_seconds(t, network)},
              {"input_rss_bytes", input_rss}};
}

// Forks, runs the case in the child (which writes its row to a pipe), and adds the child's peak RSS.
json run_isolated(const std::string& load, lb::Rank ranks, std::int64_t objects, const Strategy& s,
                  const std::string& lbaf_dir, const lbsim::Network& network, int timeout_s) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    alarm(static_cast<unsigned>(timeout_s));
    std::string text;
    try {
      text = run_case(load, ranks, objects, s, lbaf_dir, network).dump();
    } catch (const std::exception& e) {
      text = json{{"error", e.what()}}.dump();
    }
    (void)!write(fds[1], text.data(), text.size());
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(child, &status, 0, &usage);
  json row = json{{"workload", load}, {"ranks", ranks}, {"strategy", s.label}};
  if (WIFSIGNALED(status)) {
    row["error"] = WTERMSIG(status) == SIGALRM ? fmt::format("not done after {} s", timeout_s)
                                                : fmt::format("killed by signal {}", WTERMSIG(status));
  } else {
    row = json::parse(text);
  }
  row["peak_rss_bytes"] = static_cast<std::int64_t>(usage.ru_maxrss) * 1024;
  return row;
}

// Least-squares slope of y over x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
  }
  const double d = n * sxx - sx * sx;
  return d != 0.0 ? (n * sxy - sx * sy) / d : 0.0;
}

const std::vector<std::string> fitted = {"messages_per_rank", "max_messages_sent", "bytes_per_rank", "max_bytes_sent",
                                         "max_messages_handled", "rounds", "strategy_s", "peak_rss_bytes", "modelled_s"};

json fits(const json& rows, const std::string& load, const std::string& label) {
  json out;
  std::vector<double> logp, log2p;
  std::map<std::string, std::vector<double>> logs, raw;
  for (const auto& row : rows) {
    if (row["workload"] != load || row["strategy"] != label || row.contains("error")) continue;
    const double p = row["ranks"].get<double>();
    logp.push_back(std::log(p));
    log2p.push_back(std::log2(p));
    for (const auto& key : fitted) {
      const double v = row[key].get<double>();
      logs[key].push_back(std::log(std::max(v, 1e-12)));
      raw[key].push_back(v);
    }
  }
  if (logp.size() < 2) return out;
  for (const auto& key : fitted) out[key + "_exponent"] = slope(logp, logs[key]);
  out["messages_per_rank_per_log2P"] = slope(log2p, raw["messages_per_rank"]);
  return out;
}

void draw(const json& rows, const std::vector<std::string>& labels, const std::string& load, const std::string& png) {
  const std::string stem = png.substr(0, png.rfind('.'));
  std::ofstream data(stem + ".dat");
  for (const auto& label : labels) {
    data << "# " << label << "\n";
    for (const auto& row : rows) {
      if (row["workload"] != load || row["strategy"] != label || row.contains("error")) continue;
      data << fmt::format("{} {} {} {} {}\n", row["ranks"].get<double>(), row["max_messages_sent"].get<double>(),
                          row["max_bytes_sent"].get<double>(), row["rounds"].get<double>(), row["strategy_s"].get<double>());
    }
    data << "\n\n";
  }
  data.close();
  std::ofstream gp(stem + ".gp");
  gp << "set terminal pngcairo size 1100,850\nset output '" << png << "'\n";
  gp << "set multiplot layout 2,2 title 'tessera-bench-lb-scale: " << load << " workload, by rank count'\n";
  gp << "set logscale xy\nset xlabel 'ranks (P)'\nset key top left font ',8'\nset grid\n";
  const std::vector<std::pair<int, std::string>> panels = {{2, "messages sent by the busiest rank"},
                                                           {3, "bytes sent by the busiest rank"},
                                                           {4, "rounds on the critical path"},
                                                           {5, "strategy run time in lbsim (s)"}};
  for (const auto& [column, title] : panels) {
    gp << "set title '" << title << "'\nset ylabel '" << title << "'\nplot ";
    for (std::size_t i = 0; i < labels.size(); ++i) {
      gp << (i ? ", " : "") << "'" << stem << ".dat' index " << i << " using 1:" << column << " with linespoints title '"
         << labels[i] << "'";
    }
    gp << "\n";
  }
  gp << "unset multiplot\n";
  gp.close();
  if (std::system("command -v gnuplot > /dev/null") != 0) {
    fmt::print(stderr, "tessera-bench-lb-scale: gnuplot not installed (Debian package gnuplot-nox); plot script left in {}.gp\n", stem);
    return;
  }
  if (std::system(("gnuplot '" + stem + ".gp'").c_str()) == 0) fmt::print("plot: {}\n", png);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera-bench-lb-scale: each balancer's cost and quality over the rank count, in lbsim"};
  std::string ranks_text = "64,512,4096,32768,131072";
  std::string workloads_text = "lognormal,seed003,hotspot,tiled";
  std::string strategies_text = "GreedyLB,HierLB,GrapevineLB,TemperedLB,TemperedLB-work";
  std::int64_t objects = 1000000;
  int timeout_s = 600;
  std::string report = "table";
  std::string png;
  lbsim::Network network;
  double latency_us = network.latency_s * 1e6, bandwidth_gbs = network.bandwidth_Bps / 1e9;
  std::string lbaf_dir = std::filesystem::is_directory(TESSERA_LBAF_DATA_DIR) ? TESSERA_LBAF_DATA_DIR
                                                                              : TESSERA_LBAF_INSTALLED_DIR;
  app.add_option("--ranks", ranks_text, "rank counts, comma-separated")->capture_default_str();
  app.add_option("--workloads", workloads_text, "lognormal, seed003, hotspot, tiled (comma-separated)")->capture_default_str();
  app.add_option("--strategies", strategies_text, "GreedyLB, HierLB, GrapevineLB, TemperedLB, TemperedLB-work")->capture_default_str();
  app.add_option("--objects", objects, "objects at the largest rank count; smaller counts get the same objects per rank")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--timeout", timeout_s, "seconds one case may take before it is stopped and reported")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--latency", latency_us, "network latency, microseconds (modelled wall time)")->capture_default_str();
  app.add_option("--bandwidth", bandwidth_gbs, "network bandwidth, GB/s (modelled wall time)")->capture_default_str();
  app.add_option("--lbaf_data", lbaf_dir, "folder of the LBAF data sets (tests/data/lbaf), for the tiled workload");
  app.add_option("--png", png, "draw the lognormal workload's costs over P into this PNG (gnuplot)");
  app.add_option("--report", report, "table or json (one JSON object, last)")->check(CLI::IsMember({"table", "json"}));
  CLI11_PARSE(app, argc, argv);
  network.latency_s = latency_us * 1e-6;
  network.bandwidth_Bps = bandwidth_gbs * 1e9;

  std::vector<lb::Rank> ranks;
  for (const auto& text : split(ranks_text)) ranks.push_back(static_cast<lb::Rank>(std::stol(text)));
  const auto workloads = split(workloads_text);
  std::vector<Strategy> strategies;
  for (const auto& label : split(strategies_text)) {
    const auto it = std::find_if(all_strategies.begin(), all_strategies.end(), [&](const Strategy& s) { return s.label == label; });
    if (it == all_strategies.end()) {
      fmt::print(stderr, "tessera-bench-lb-scale: --strategies: unknown '{}'\n", label);
      return 2;
    }
    strategies.push_back(*it);
  }
  const double largest = static_cast<double>(*std::max_element(ranks.begin(), ranks.end()));

  json rows = json::array();
  for (const auto& load : workloads) {
    fmt::print("\n{} workload\n{:<16} {:>7} {:>9} {:>8} {:>8} {:>9} {:>9} {:>11} {:>7} {:>9} {:>9} {:>9}\n", load, "strategy",
               "ranks", "objects", "I", "bound", "migr.", "msgs/rank", "max bytes", "rounds", "time (s)", "peak MB", "model (s)");
    for (const lb::Rank p : ranks) {
      const auto n = static_cast<std::int64_t>(std::llround(static_cast<double>(objects) * static_cast<double>(p) / largest));
      for (const auto& s : strategies) {
        json row = run_isolated(load, p, n, s, lbaf_dir, network, timeout_s);
        if (row.contains("error")) {
          fmt::print("{:<16} {:>7} {}\n", s.label, p, row["error"].get<std::string>());
        } else {
          fmt::print("{:<16} {:>7} {:>9} {:>8.4g} {:>8.4g} {:>9} {:>9.1f} {:>11} {:>7} {:>9.3f} {:>9.0f} {:>9.3g}\n", s.label, p,
                     row["objects"].get<std::int64_t>(), row["final_imbalance"].get<double>(),
                     row["lower_bound_imbalance"].get<double>(), row["migrations"].get<std::int64_t>(),
                     row["messages_per_rank"].get<double>(), row["max_bytes_sent"].get<std::int64_t>(),
                     row["rounds"].get<std::int64_t>(), row["strategy_s"].get<double>(),
                     row["peak_rss_bytes"].get<double>() / 1e6, row["modelled_s"].get<double>());
        }
        std::fflush(stdout);
        rows.push_back(std::move(row));
      }
    }
  }

  json fit = json::object();
  fmt::print("\nfitted exponents b of cost ~ P^b over {} ranks\n{:<12} {:<16} {:>10} {:>10} {:>10} {:>10} {:>10} {:>14}\n",
             ranks_text, "workload", "strategy", "msgs/rank", "max bytes", "rounds", "time", "peak RSS", "msgs/log2 P");
  for (const auto& load : workloads) {
    for (const auto& s : strategies) {
      json f = fits(rows, load, s.label);
      if (f.empty()) continue;
      fmt::print("{:<12} {:<16} {:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f} {:>14.3f}\n", load, s.label,
                 f["messages_per_rank_exponent"].get<double>(), f["max_bytes_sent_exponent"].get<double>(),
                 f["rounds_exponent"].get<double>(), f["strategy_s_exponent"].get<double>(),
                 f["peak_rss_bytes_exponent"].get<double>(), f["messages_per_rank_per_log2P"].get<double>());
      fit[load][s.label] = std::move(f);
    }
  }
  if (!png.empty()) {
    std::vector<std::string> labels;
    for (const auto& s : strategies) labels.push_back(s.label);
    draw(rows, labels, workloads.front(), png);
  }
  if (report == "json") {
    json out{{"benchmark", "lb_scale"},
             {"latency_s", network.latency_s},
             {"bandwidth_Bps", network.bandwidth_Bps},
             {"objects_at_largest", objects},
             {"cases", rows},
             {"fits", fit}};
    fmt::print("{}\n", out.dump());
  }
  return 0;
}
