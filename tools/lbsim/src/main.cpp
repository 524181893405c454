// lbsim: replays one phase of recorded (or synthetic) LB data through any strategy of the LB
// manager on virtual ranks, with the very code a live job runs. See app.hpp for the outputs.

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app.hpp"
#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/load_model.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lbsim/synthetic.hpp"

namespace {

using namespace tessera;

// Marks the ranks of --leaving in `inputs` and the staying count in every input; returns them
// ascending. Throws std::invalid_argument for a rank outside the inputs, one named twice, or all.
std::vector<lb::Rank> mark_leaving(std::vector<lb::StrategyInput>& inputs, std::vector<lb::Rank> leaving) {
  std::sort(leaving.begin(), leaving.end());
  for (std::size_t i = 0; i < leaving.size(); ++i) {
    const lb::Rank r = leaving[i];
    if (r < 0 || static_cast<std::size_t>(r) >= inputs.size())
      throw std::invalid_argument("--leaving " + std::to_string(r) + ": expected a rank in [0, " +
                                  std::to_string(inputs.size()) + ")");
    if (i > 0 && leaving[i - 1] == r) throw std::invalid_argument("--leaving names rank " + std::to_string(r) + " twice");
  }
  if (leaving.size() == inputs.size())
    throw std::invalid_argument("--leaving names every rank (expected at least one to stay)");
  for (lb::Rank r : leaving) inputs[static_cast<std::size_t>(r)].leaving = true;
  for (auto& input : inputs) input.staying = static_cast<std::int64_t>(inputs.size() - leaving.size());
  return leaving;
}

int run_lbsim(const lbsim::app::Options& options) {
  std::unique_ptr<lb::Strategy> strategy;
  if (!options.strategy.empty()) strategy = lb::Registry::builtin().create(options.strategy, options.args);
  // Reported in --work when given, else in the model the strategy balanced.
  lbsim::WorkModel work = lbsim::parse_work(options.work);
  if (options.work.empty() && strategy && strategy->work_model()) work = *strategy->work_model();

  lbsim::app::Run run;
  lb::LbData data;
  if (options.use_synthetic) {
    data = lbsim::make_synthetic(lbsim::parse_synthetic(options.synthetic));
    run.source = "synthetic \"" + options.synthetic + "\"";
  } else {
    data = lb::read_lb_data(options.data);
    run.source = options.data;
  }
  const auto ids = data.phase_ids();
  run.phase = options.phase ? *options.phase : (ids.empty() ? 0 : ids.front());
  auto inputs = lbsim::predicted_inputs(data, run.phase, lb::parse_load_model(options.model), options.ranks);
  if (options.reshape.enabled()) run.reshape = lb::reshape(inputs, options.reshape);
  if (!options.leaving.empty()) run.leaving = mark_leaving(inputs, options.leaving);
  for (const auto& rank : inputs) run.objects += static_cast<std::int64_t>(rank.objects.size());
  const lb::NodeMap nodes = lbsim::phase_nodes(data, options.ranks, options.ranks_per_node);
  run.nodes = nodes.node.empty() ? static_cast<std::int64_t>(inputs.size())
                                 : *std::max_element(nodes.node.begin(), nodes.node.end()) + std::int64_t{1};
  if (strategy) run.strategy = options.strategy + (options.args.empty() ? "" : " " + options.args);
  run.result = lbsim::simulate(strategy.get(), inputs, work, nodes);
  for (lb::Rank r : run.leaving)
    run.left_on_leaving += static_cast<std::int64_t>(run.result.balanced[static_cast<std::size_t>(r)].objects.size());
  run.network = options.network;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  run.peak_rss_bytes = static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // Linux: kilobytes
  run.phases = lbsim::phase_statistics(data, work, lbsim::phase_nodes(data, 0, options.ranks_per_node));  // recorded ranks
  if (!options.out.empty()) lb::write_lb_data(lbsim::placement_data(data, run.phase, run.result.balanced, nodes), options.out);

  if (options.json) {
    std::cout << lbsim::app::json_line(run) << '\n';
  } else {
    lbsim::app::print_table(std::cout, run, options.stats);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A simulated gossip stage allocates and frees gigabytes of message payloads; without these
  // glibc hands freed memory back to the kernel every round and page faults dominate the run.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  if (argc > 1 && std::string_view(argv[1]) == "advise") return tessera::lbsim::app::run_advise_command(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "report") return tessera::lbsim::app::run_report_command(argc - 1, argv + 1);
  int exit_code = 0;
  const auto options = tessera::lbsim::app::parse_options(argc, argv, &exit_code);
  if (!options) return exit_code;
  try {
    return run_lbsim(*options);
  } catch (const std::exception& e) {
    std::cerr << "lbsim: " << e.what() << '\n';
    return 1;
  }
}
