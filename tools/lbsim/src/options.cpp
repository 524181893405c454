// lbsim's command line.

#include <iostream>

#include <CLI/CLI.hpp>

#include "app.hpp"
#include "tessera/lb/load_model.hpp"
#include "tessera/lb/registry.hpp"

namespace tessera::lbsim::app {

std::optional<Options> parse_options(int argc, char** argv, int* exit_code) {
  Options o;
  CLI::App cli{"lbsim: replay recorded or synthetic LB data through Tessera's load balancers on virtual ranks"};
  cli.add_option("--data", o.data, "recorded LB data DIR/STEM (files STEM.<rank>.json, plain or brotli)");
  cli.add_option("--phase", o.phase, "phase of the data to balance (default: the first)");
  auto* synthetic = cli.add_option("--synthetic", o.synthetic,
                                   "synthetic workload, e.g. \"objects=10000 ranks=4096 mapped=16 "
                                   "load=uniform:1e-5:1e-1 seed=1\" (or load=lognormal:MEAN:VARIANCE)");
  cli.add_option("--strategy", o.strategy, "strategy to run (see --help-lb); none: statistics only");
  cli.add_option("--args", o.args, "strategy arguments, \"key=value ...\"");
  cli.add_option("--model", o.model,
                 "load model the strategy sees: persistence (the phase's loads), median:N or linear:N (predicted "
                 "from the object's last N phases up to --phase)")
      ->capture_default_str();
  cli.add_option("--ranks", o.ranks, "virtual ranks (default: as many as the data has)")->check(CLI::PositiveNumber);
  cli.add_option("--ranks-per-node", o.ranks_per_node,
                 "place the ranks on nodes of this many ranks each (rank r on node r / N), for the work model's "
                 "gamma and HierLB's tree; default: the data's metadata.shared_node, else a node per rank")
      ->check(CLI::PositiveNumber);
  cli.add_option("--work", o.work, "work model rank work is reported in, \"alpha=A beta=B gamma=G delta=D memory_limit=BYTES\" "
                 "(LBAF's affine combination); default: the strategy's own keys");
  double latency_us = o.network.latency_s * 1e6, bandwidth_gbs = o.network.bandwidth_Bps / 1e9;
  cli.add_option("--latency", latency_us,
                 "network latency in microseconds per message on the critical path, for the modelled wall time "
                 "(default 1.5: assumed for MPI on EDR InfiniBand)")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--bandwidth", bandwidth_gbs,
                 "network bandwidth in GB/s (1e9 bytes/s) per rank, for the modelled wall time (default 12.5: EDR "
                 "InfiniBand, 100 Gb/s, the network of seed 003's runs)")
      ->check(CLI::PositiveNumber);
  cli.add_option("--split_above", o.reshape.split_above,
                 "before the strategy, split objects heavier than F x the average rank load in halves (again while "
                 "heavier), as --tessera_lb_split_above does live")
      ->check(CLI::PositiveNumber);
  cli.add_option("--merge_below", o.reshape.merge_below,
                 "before the strategy, merge in pairs (by id) the objects of one rank lighter than F x the average "
                 "object load, as --tessera_lb_merge_below does live")
      ->check(CLI::PositiveNumber);
  cli.add_option("--leaving", o.leaving,
                 "ranks that leave at this balancing, R,R,... (an elastic shrink): every migratable object moves off "
                 "them and none moves onto them; needs --strategy")
      ->delimiter(',');
  cli.add_flag("--stats", o.stats, "per-phase rank-work statistics of every phase, no balancing needed");
  std::string report = "table";
  cli.add_option("--report", report, "output: table (for people) or json (one line, last)")
      ->check(CLI::IsMember({"table", "json"}));
  cli.add_option("--out", o.out, "write the balanced placement as LBDatafile JSON to DIR/STEM.<rank>.json");
  bool help_lb = false;
  cli.add_flag("--help-lb", help_lb, "list every strategy with its keys, defaults and meaning");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    *exit_code = cli.exit(e);
    return std::nullopt;
  }
  if (help_lb) {
    std::cout << lb::Registry::builtin().help();
    *exit_code = 0;
    return std::nullopt;
  }
  o.use_synthetic = synthetic->count() > 0;
  if (o.use_synthetic == !o.data.empty()) {
    std::cerr << "lbsim: give exactly one input: --data DIR/STEM or --synthetic \"SPEC\"\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (o.use_synthetic && o.phase && *o.phase != 0) {
    std::cerr << "lbsim: --phase " << *o.phase << ": a synthetic workload has only phase 0\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (o.strategy.empty() && !o.args.empty()) {
    std::cerr << "lbsim: --args needs --strategy NAME\n";
    *exit_code = 2;
    return std::nullopt;
  }
  try {
    (void)lb::parse_load_model(o.model);
  } catch (const lb::ArgumentError& e) {
    std::cerr << "lbsim: --model " << o.model << ": expected persistence, median:N or linear:N (N an integer in [1, 1000])\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (!o.leaving.empty() && o.strategy.empty()) {
    std::cerr << "lbsim: --leaving needs --strategy NAME (the strategy places what the leaving ranks held)\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (o.reshape.enabled() && !o.out.empty()) {
    std::cerr << "lbsim: --out with --split_above or --merge_below: the pieces and merged objects are not objects "
                 "of the recorded data, so their placement cannot be written as it\n";
    *exit_code = 2;
    return std::nullopt;
  }
  o.json = report == "json";
  o.network.latency_s = latency_us * 1e-6;
  o.network.bandwidth_Bps = bandwidth_gbs * 1e9;
  *exit_code = 0;
  return o;
}

}  // namespace tessera::lbsim::app
