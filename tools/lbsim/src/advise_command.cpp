// `lbsim advise`: every option of the advisor's grid replayed on recorded LB data, ranked
// (tessera/lbsim/advisor.hpp), as a table and, with --report=json, one JSON line last.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app.hpp"
#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/advisor.hpp"
#include "tessera/lbsim/synthetic.hpp"

namespace tessera::lbsim::app {

namespace {
constexpr double kDefaultBandwidthGBps = 1.0;

// "A:B" -> (A, B). Throws InputError naming --phases.
std::pair<lb::PhaseId, lb::PhaseId> parse_phases(const std::string& text) {
  const InputError malformed(fmt::format("--phases {}: expected A:B, two phase ids", text));
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw malformed;
  std::size_t used_a = 0, used_b = 0;
  const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
  lb::PhaseId first = 0, last = 0;
  try {
    first = std::stoll(a, &used_a);
    last = std::stoll(b, &used_b);
  } catch (const std::logic_error&) {  // std::stoll's invalid_argument and out_of_range
    throw malformed;
  }
  if (used_a != a.size() || used_b != b.size()) throw malformed;
  return {first, last};
}

std::string cost_line(const lb::CostModel& cost) {
  return fmt::format("migration: {:g} GB/s ({}) and {:g} us per object; strategy time: {}; strategies see fixed "
                     "objects' loads: {}",
                     cost.bandwidth_Bps / 1e9, cost.bandwidth_source, cost.latency_s * 1e6,
                     cost.strategy_s ? fmt::format("{:g} s per run (--strategy-cost)", *cost.strategy_s)
                                     : std::string("measured on virtual ranks, divided by the rank count"),
                     cost.fixed_loads_counted ? "yes" : "no (--fixed-loads ignored)");
}

void print_table(const std::vector<lb::AdviceRow>& rows, std::size_t top) {
  fmt::print("{:>4}  {:>12}  {:>6}  {:>10}  {:>9}  {}\n", "rank", "predicted s", "gain", "migrations", "LB s",
             "option and flags");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    if (i >= top && !row.option.strategy.empty()) continue;  // the no-LB row is always shown
    fmt::print("{:>4}  {:>12.4f}  {:>6.3f}  {:>10}  {:>9.4f}  {}\n", i + 1, row.result.predicted_s, row.gain,
               row.result.migrations, row.result.lb_s(), row.option.label());
    if (!row.option.strategy.empty()) fmt::print("{:>50}{}\n", "", row.option.flags());
  }
}
}  // namespace

std::string advice_json(const std::vector<lb::AdviceRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows)
    out.push_back({{"flags", row.option.flags()},
                   {"predicted_s", row.result.predicted_s},
                   {"gain", row.gain},
                   {"migrations", row.result.migrations},
                   {"lb_s", row.result.lb_s()}});
  return out.dump();
}

int run_advise_command(int argc, char** argv) {
  std::string data_stem, phases, strategy, args, fixed = "counted", report = "table";
  std::optional<double> bandwidth, strategy_cost;
  double latency_us = 100.0;
  std::size_t top = 10;
  CLI::App cli{"lbsim advise: replay recorded LB data under every option of a grid of strategies, keys, intervals "
               "and load models, and rank them by predicted time to solution",
               "lbsim advise"};
  cli.add_option("--data", data_stem, "recorded LB data DIR/STEM (files STEM.<rank>.json, plain or brotli)")->required();
  cli.add_option("--phases", phases, "A:B, the phases to replay (inclusive; default: all)");
  cli.add_option("--bandwidth", bandwidth, "migration bandwidth, GB/s (default 1)");
  cli.add_option("--latency", latency_us, "migration cost per object sent or received, microseconds")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cli.add_option("--strategy-cost", strategy_cost, "fixed seconds per strategy run (default: measured)")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--fixed-loads", fixed, "counted: strategies see non-migratable objects' loads; ignored: as 0")
      ->check(CLI::IsMember({"counted", "ignored"}))
      ->capture_default_str();
  cli.add_option("--strategy", strategy, "only this strategy's rows (and no LB)");
  cli.add_option("--args", args, "only the rows with these grid values, \"key=value ...\"");
  cli.add_option("--top", top, "table rows shown (the JSON line has every row)")->check(CLI::PositiveNumber)->capture_default_str();
  cli.add_option("--report", report, "table, or json: also one JSON line, last")->check(CLI::IsMember({"table", "json"}));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  try {
    if (bandwidth && !(*bandwidth > 0.0))
      throw InputError(fmt::format("--bandwidth {:g}: expected GB/s > 0", *bandwidth));
    lb::CostModel cost;
    cost.bandwidth_Bps = bandwidth.value_or(kDefaultBandwidthGBps) * 1e9;
    if (bandwidth) cost.bandwidth_source = "--bandwidth";
    cost.latency_s = latency_us * 1e-6;
    cost.strategy_s = strategy_cost;
    cost.fixed_loads_counted = fixed == "counted";
    const auto grid = lb::advise_grid(strategy, args);
    const auto start = std::chrono::steady_clock::now();
    const lb::LbData data = lb::read_lb_data(data_stem);
    const auto ids = data.phase_ids();
    auto [first, last] = phases.empty() ? std::pair<lb::PhaseId, lb::PhaseId>{ids.empty() ? 0 : ids.front(),
                                                                               ids.empty() ? 0 : ids.back()}
                                        : parse_phases(phases);
    const lb::ReplayData replay_data(data, first, last);
    if (!bandwidth) lb::use_recorded_bandwidth(replay_data, cost);
    const auto rows = lb::advise(replay_data, grid, cost);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("lbsim advise: {}, phases {}..{} ({}), {} ranks, {} objects; {} options in {:.2f} s\n", data_stem, first,
               last, replay_data.phases().size(), replay_data.ranks(), replay_data.objects(), rows.size(), took);
    fmt::print("{}\n", cost_line(cost));
    fmt::print("phase fixed part: {}\n", replay_data.walled()
                                              ? "the recorded phase time beyond the most loaded rank's work (phase_time_s)"
                                              : "none (the data records no phase times)");
    fmt::print("gain = predicted time of no LB / predicted time; LB s = strategy + migration\n");
    print_table(rows, top);
    if (report == "json") {
      nlohmann::json line;
      line["rows"] = nlohmann::json::parse(advice_json(rows));
      line["phases"] = {first, last};
      line["ranks"] = replay_data.ranks();
      line["bandwidth_GBps"] = cost.bandwidth_Bps / 1e9;
      line["bandwidth_source"] = cost.bandwidth_source;
      line["advise_s"] = took;
      fmt::print("{}\n", line.dump());
    }
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::cerr << "lbsim advise: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace tessera::lbsim::app
