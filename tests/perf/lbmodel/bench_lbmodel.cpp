// tessera-bench-lbmodel: what the work model changes. On LBAF's ccm_example,
// synthetic-blocks, user-defined-memory-toy-problem and challenging_toy_fewer_tasks (phase 0, in
// tests/data/lbaf), with the parameters of LBAF's config for each file (beta, gamma, delta and the
// max_memory_usage upper bound), every strategy runs with the model off (load only, no limit) and
// on; both plans are judged in the model: maximum rank work before and after, and ranks over the
// memory limit after (must be 0 with the model on). Beside them, TemperedLB's distributed transfer
// against the sequential one (load only, median final I and messages over --seeds, on these sets,
// LBAF's nolb-8color-16nodes and three synthetic workloads of --synthetic_ranks), and the cost of one
// TemperedLB iteration in lbsim at --big_ranks virtual ranks with --big_objects objects (wall
// seconds per iteration, peak resident bytes of this process: maxrss, which includes the tables
// above, measured last), first with max_known=--big_max_known, then with the default keys.
// --report=json prints one line: {"benchmark":"lbmodel","sets":[{"set":..,"strategy":..,
// "model_off_max_work":..,"model_on_max_work":..,"initial_max_work":..,"model_on_violations":..,
// "model_off_violations":..}, ...],"distributed_vs_sequential":[..],"big_s_per_iteration":..,
// "big_peak_rss_bytes":..,"big_I":..,"big_capped_s_per_iteration":..,"big_capped_peak_rss_bytes":..,..}

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <filesystem>
#include <iostream>
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

struct DataSet {
  std::string name;
  std::string stem;   // under tests/data/lbaf/data
  std::string model;  // LBAF config's work model, as strategy keys
};

// From LBAF's config/*.yaml of the same name (commit in tests/data/lbaf/SOURCE.md).
const std::vector<DataSet> sets = {
    {"ccm_example", "ccm_example/data", "beta=0 gamma=0 memory_limit=8e9"},
    {"synthetic-blocks", "synthetic-blocks/synthetic-dataset-blocks", "beta=0 gamma=0 delta=0.1 memory_limit=45"},
    {"user-defined-memory-toy-problem", "user-defined-memory-toy-problem/toy_mem", "beta=0 gamma=0 memory_limit=8e9"},
    {"challenging_toy_fewer_tasks", "challenging_toy_fewer_tasks/toy", "beta=0 gamma=0 delta=0 memory_limit=8e9"},
};

struct Strategy {
  std::string name;
  std::string args;
  bool model_keys;  // takes alpha ... delta (else only memory_limit)
};

const std::vector<Strategy> strategies = {
    {"GreedyLB", "", false},
    {"HierLB", "", false},
    {"TemperedLB", "deterministic=true knowledge=complete", true},
    {"GrapevineLB", "deterministic=true knowledge=complete", true},
};

// The keys of `model` a strategy takes: all for TemperedLB / GrapevineLB, memory_limit for the rest.
std::string keys_for(const Strategy& s, const std::string& model) {
  if (s.model_keys) return model;
  const auto at = model.find("memory_limit=");
  return at == std::string::npos ? std::string() : model.substr(at);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera-bench-lbmodel: the work model and memory limits on LBAF's data sets"};
  std::string report = "text";
  int seeds = 5;
  int big_ranks = 16384;
  int big_objects = 100000;
  int big_iters = 2;
  int big_max_known = 256;
  int synthetic_ranks = 4096;
  app.add_option("--report", report, "text or json (one JSON line last)")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--seeds", seeds, "seeds of the distributed vs sequential medians")->capture_default_str();
  app.add_option("--synthetic_ranks", synthetic_ranks,
                 "virtual ranks of the synthetic sets of the distributed vs sequential table (0: skip them)")
      ->capture_default_str()->check(CLI::Range(0, 1 << 20));
  app.add_option("--big_ranks", big_ranks, "virtual ranks of the cost run (0: skip it)")->capture_default_str();
  app.add_option("--big_objects", big_objects, "objects of the cost run")->capture_default_str();
  app.add_option("--big_iters", big_iters, "TemperedLB iterations of the cost run")->capture_default_str();
  app.add_option("--big_max_known", big_max_known, "max_known of the capped cost run (run before the default one)")
      ->capture_default_str()->check(CLI::Range(1, 1 << 30));
  // The repository's copy from a build tree, the installed one from the tessera-tools package.
  std::string lbaf_dir = std::filesystem::is_directory(TESSERA_LBAF_DATA_DIR) ? TESSERA_LBAF_DATA_DIR
                                                                              : TESSERA_LBAF_INSTALLED_DIR;
  app.add_option("--lbaf_data", lbaf_dir, "folder of the LBAF data sets (tests/data/lbaf)")
      ->capture_default_str()->check(CLI::ExistingDirectory);
  CLI11_PARSE(app, argc, argv);

  nlohmann::ordered_json out;
  out["benchmark"] = "lbmodel";
  out["sets"] = nlohmann::ordered_json::array();
  fmt::print("{:<32} {:<12} {:>11} {:>11} {:>11} {:>9} {:>9}\n", "data set (LBAF config model)", "strategy",
             "max W start", "model off", "model on", "over off", "over on");
  for (const DataSet& set : sets) {
    const lb::LbData data = lb::read_lb_data(lbaf_dir + "/data/" + set.stem);
    const auto inputs = lbsim::phase_inputs(data, data.phase_ids().front());
    for (const Strategy& s : strategies) {
      auto model_strategy = lb::Registry::builtin().create(s.name, s.args + " " + keys_for(s, set.model));
      // Both plans judged in the data set's full model (TemperedLB parses the keys).
      const lb::WorkModel full = *lb::Registry::builtin().create("TemperedLB", set.model)->work_model();
      auto off_strategy = lb::Registry::builtin().create(s.name, s.args);
      const auto off = lbsim::simulate(off_strategy.get(), inputs, full);
      const auto on = lbsim::simulate(model_strategy.get(), inputs, full);
      fmt::print("{:<32} {:<12} {:>11.5g} {:>11.5g} {:>11.5g} {:>9} {:>9}\n", set.name, s.name, off.before.max,
                 off.after.max, on.after.max, off.memory_violations_after, on.memory_violations_after);
      out["sets"].push_back({{"set", set.name},
                             {"strategy", s.name},
                             {"model", set.model},
                             {"initial_max_work", off.before.max},
                             {"model_off_max_work", off.after.max},
                             {"model_on_max_work", on.after.max},
                             {"model_off_I", off.after.imbalance()},
                             {"model_on_I", on.after.imbalance()},
                             {"model_off_violations", off.memory_violations_after},
                             {"model_on_violations", on.memory_violations_after},
                             {"initial_violations", off.memory_violations_before}});
    }
  }

  // Distributed (live) against sequential (LBAF's) transfer, load only, default keys otherwise:
  // asynchronous gossip (the default), deterministic (live and simulated plans equal), sequential
  // as LBAF runs it (synchronous rounds, one trial, every iteration). On the LBAF sets and three synthetic workloads of
  // --synthetic_ranks ranks (tessera-bench-lb-scale's shapes): final I and messages, medians.
  std::vector<std::pair<std::string, std::vector<lb::StrategyInput>>> cases;
  for (const DataSet& set : sets) {
    const lb::LbData data = lb::read_lb_data(lbaf_dir + "/data/" + set.stem);
    cases.emplace_back(set.name, lbsim::phase_inputs(data, data.phase_ids().front()));
  }
  {
    const lb::LbData data = lb::read_lb_data(lbaf_dir + "/data/nolb-8color-16nodes-11firstphases/data");
    cases.emplace_back("nolb-8color-16nodes", lbsim::phase_inputs(data, data.phase_ids().front()));
  }
  if (synthetic_ranks > 0) {
    const int p = synthetic_ranks;
    const int objects = p * 61 / 8;  // 7.6 per rank, as 10^6 on 131,072
    for (const auto& [name, shape] : {std::pair{std::string("lognormal"), fmt::format("mapped={} load=lognormal:1:1", p)},
                                      std::pair{std::string("seed003"), fmt::format("mapped={} load=uniform:1e-5:1e-1", std::max(1, p / 256))},
                                      std::pair{std::string("hotspot"), fmt::format("mapped={} load=lognormal:1:1 hot={}:8", p, std::max(1, p / 64))}}) {
      const auto spec = lbsim::parse_synthetic(fmt::format("objects={} ranks={} {} seed=1", objects, p, shape));
      cases.emplace_back(fmt::format("{}, {} ranks", name, p), lbsim::phase_inputs(lbsim::make_synthetic(spec), 0));
    }
  }
  out["distributed_vs_sequential"] = nlohmann::ordered_json::array();
  fmt::print("\nTemperedLB, load only, medians of {} seeds: final I and messages of the distributed transfer (default "
             "keys; deterministic=true), and of the sequential transfer as LBAF runs it (deterministic=true trials=1 patience=0)\n", seeds);
  fmt::print("  {:<28} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8}\n", "set", "dist. I", "det. I", "seq. I", "dist. msgs",
             "seq. msgs", "I ratio", "msgs ratio");
  for (const auto& [name, inputs] : cases) {
    std::vector<double> asynchronous, distributed, sequential, asynchronous_messages, sequential_messages;
    for (int seed = 1; seed <= seeds; ++seed) {
      for (auto [args, into, messages] :
           {std::tuple{std::string(""), &asynchronous, &asynchronous_messages},
            std::tuple{std::string("deterministic=true"), &distributed, static_cast<std::vector<double>*>(nullptr)},
            std::tuple{std::string("deterministic=true transfer=sequential trials=1 patience=0"), &sequential,
                       &sequential_messages}}) {
        auto strategy = lb::Registry::builtin().create("TemperedLB", args + " seed=" + std::to_string(seed));
        const auto result = lbsim::simulate(strategy.get(), inputs, lb::WorkModel{});
        into->push_back(result.after.imbalance());
        if (messages != nullptr) messages->push_back(static_cast<double>(result.traffic.messages));
      }
    }
    const double i_ratio = median(sequential) > 0.0 ? median(asynchronous) / median(sequential) : (median(asynchronous) > 0.0 ? HUGE_VAL : 1.0);
    const double m_ratio = median(asynchronous_messages) / std::max(1.0, median(sequential_messages));
    fmt::print("  {:<28} {:>9.4g} {:>9.4g} {:>9.4g} {:>9.0f} {:>9.0f} {:>8.2f} {:>8.2f}\n", name, median(asynchronous),
               median(distributed), median(sequential), median(asynchronous_messages), median(sequential_messages), i_ratio,
               m_ratio);
    out["distributed_vs_sequential"].push_back(
        {{"set", name}, {"distributed_default_I", median(asynchronous)}, {"distributed_I", median(distributed)},
         {"sequential_I", median(sequential)}, {"distributed_default_messages", median(asynchronous_messages)},
         {"sequential_messages", median(sequential_messages)}, {"I_over_sequential", i_ratio},
         {"messages_over_sequential", m_ratio}});
  }

  if (big_ranks > 0) {
    const auto spec = lbsim::parse_synthetic(fmt::format("objects={} ranks={} mapped=16 seed=1", big_objects, big_ranks));
    const auto inputs = lbsim::phase_inputs(lbsim::make_synthetic(spec), 0);
    // The capped run first: peak RSS only grows, so the default run's figure is its own peak.
    for (int max_known : {big_max_known, 0}) {
      auto strategy = lb::Registry::builtin().create(
          "TemperedLB", fmt::format("iters={} trials=1 max_known={}", big_iters, max_known));  // default keys otherwise
      const auto result = lbsim::simulate(strategy.get(), inputs, lb::WorkModel{});
      const double per_iteration = result.strategy_s / static_cast<double>(result.iterations->iterations.size());
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      const double rss = static_cast<double>(usage.ru_maxrss) * 1024.0;
      fmt::print("\nTemperedLB in lbsim, {} ranks, {} objects, max_known={}: {:.3f} s per iteration, peak RSS {:.3g} GB, I {:.4g}\n",
                 big_ranks, big_objects, max_known, per_iteration, rss / 1e9, result.after.imbalance());
      const std::string key = max_known == 0 ? "big" : "big_capped";
      out[key + "_s_per_iteration"] = per_iteration;
      out[key + "_peak_rss_bytes"] = rss;
      out[key + "_I"] = result.after.imbalance();
    }
    out["big_ranks"] = big_ranks;
    out["big_objects"] = big_objects;
    out["big_capped_max_known"] = big_max_known;
  }
  if (report == "json") std::cout << out.dump() << '\n';
  return 0;
}
