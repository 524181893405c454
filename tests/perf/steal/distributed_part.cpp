#include "distributed_part.hpp"

#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "retentive_workload.hpp"
#include "tessera/uts/distributed_search.hpp"

namespace tessera::bench {
namespace {

using collections::steal::IterationStats;
using collections::steal::Policy;
using collections::steal::StealOptions;

nlohmann::json steals_by_iteration(const std::vector<IterationStats>& iterations) {
  nlohmann::json list = nlohmann::json::array();
  for (const IterationStats& s : iterations) {
    const auto total = s.total();
    list.push_back({{"iteration", s.iteration},
                    {"seconds", s.seconds},
                    {"steals_attempted", total.steals_attempted},
                    {"steals_successful", total.steals_successful}});
  }
  return list;
}

}  // namespace

int run_distributed_part(int argc, char** argv, int repeat) {
  TerminationFlags termination_flags;
  RuntimeOptions options;
  options.flag_groups = {&termination_flags};
  Runtime rt(argc, argv, options);
  Termination term(rt, termination_flags);
  nlohmann::json json;
  bool counts_ok = true;
  for (const char* name : {"T1", "T3"}) {
    const uts::NamedTree& tree = uts::named_tree(name);
    for (const Policy policy : {Policy::random, Policy::lifeline, Policy::success_only}) {
      StealOptions steal;
      steal.policy = policy;
      nlohmann::json best;
      double best_rate = 0;
      for (int i = 0; i < repeat; ++i) {
        const uts::DistributedSearchResult result = uts::search_distributed(rt, tree.params, steal);
        if (result.counts.nodes != tree.nodes || result.counts.depth != tree.depth) {
          counts_ok = false;
          if (rt.rank() == 0)
            std::cerr << fmt::format("tessera-bench-steal: {} under {}: counted {} nodes, depth {}; published {}, {}\n",
                                     name, to_string(policy), result.counts.nodes, result.counts.depth, tree.nodes,
                                     tree.depth);
        }
        const double rate = static_cast<double>(result.counts.nodes) / result.stats.seconds;
        if (rate > best_rate) {
          best_rate = rate;
          const auto total = result.stats.total();
          // The share of the ranks' time spent inside tasks: what stealing and termination cost,
          // apart from any slowdown of the tasks themselves by other processes on the cores.
          const double utilization = total.work_seconds / (rt.size() * result.stats.seconds);
          best = {{"nodes_per_s", rate},
                  {"utilization", utilization},
                  {"cpu_seconds", total.cpu_seconds},
                  {"wall_seconds", result.stats.seconds},
                  {"steals_attempted", total.steals_attempted},
                  {"steals_successful", total.steals_successful},
                  {"steals_failed", total.steals_failed},
                  {"lifeline_activations", total.lifeline_activations},
                  {"work_seconds", total.work_seconds},
                  {"steal_seconds", total.steal_seconds}};
        }
      }
      json["uts"][name][std::string(to_string(policy))] = best;
    }
  }
  StealOptions steal;
  steal.policy = Policy::random;
  steal.n = 1;  // the tasks are long: look at the network after each one
  steal.retentive = true;
  json["retentive"] = steals_by_iteration(run_iterative(rt, term, RetentiveWorkload{}, steal));
  steal.retentive = false;
  json["plain"] = steals_by_iteration(run_iterative(rt, term, RetentiveWorkload{}, steal));
  if (rt.rank() == 0) std::cout << json.dump() << "\n";
  return counts_ok ? 0 : 1;
}

}  // namespace tessera::bench
