// The advisor's grid of options (advisor.hpp) and the flags of each.

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tessera/lb/registry.hpp"
#include "tessera/lb/advisor.hpp"

namespace tessera::lb {

namespace {
// Keys every row of a strategy carries besides the swept one: TemperedLB and GrapevineLB run
// deterministic, so that a live run with the row's flags makes the plan the replay made.
std::string fixed_args(const std::string& strategy) {
  return strategy == "TemperedLB" || strategy == "GrapevineLB" ? "deterministic=true" : "";
}

std::map<std::string, std::string> pairs_of(const std::string& text, const std::string& flag) {
  std::map<std::string, std::string> out;
  for (auto& [key, value] : split_key_values(text, fmt::format("{} '{}'", flag, text))) out[key] = std::move(value);
  return out;
}
}  // namespace

std::vector<GridKey> advise_grid_keys() {
  return {
      {"GreedyLB", "mode", {"refine", "full"}},
      {"HierLB", "c", {"1.003", "1.05"}},
      {"GrapevineLB", "fanout", {"2", "6"}},
      {"TemperedLB", "iters", {"4", "8"}},
  };
}

std::vector<LoadModelSpec> advise_models() {
  return {LoadModelSpec{}, parse_load_model("median:5"), parse_load_model("linear:5")};
}

std::string AdviseOption::flags() const {
  if (strategy.empty()) return "";
  std::string out = "--tessera_lb_name=" + strategy;
  if (!args.empty())
    out += args.find(' ') == std::string::npos ? " --tessera_lb_args=" + args : " --tessera_lb_args=\"" + args + "\"";
  return out + " --tessera_lb_interval=" + interval + " --tessera_lb_model=" + to_string(model);
}

std::string AdviseOption::label() const {
  if (strategy.empty()) return "no LB";
  return fmt::format("{}{}{}, {}, {}", strategy, args.empty() ? "" : " ", args,
                     interval == "auto" ? std::string("auto") : "every " + interval, to_string(model));
}

std::vector<AdviseOption> advise_grid(const std::string& strategy, const std::string& args) {
  const auto keys = advise_grid_keys();
  if (!strategy.empty() && std::none_of(keys.begin(), keys.end(), [&](const GridKey& k) { return k.strategy == strategy; })) {
    std::vector<std::string> names;
    for (const auto& k : keys) names.push_back(k.strategy);
    throw ArgumentError(fmt::format("--strategy {}: not in the advise grid; expected one of: {}", strategy,
                                 fmt::join(names, ", ")));
  }
  if (strategy.empty() && !args.empty()) throw ArgumentError("--args needs --strategy NAME");
  const auto wanted = pairs_of(args, "--args");
  for (const auto& [key, value] : wanted) {
    const auto grid = std::find_if(keys.begin(), keys.end(),
                                   [&](const GridKey& k) { return k.strategy == strategy && k.key == key; });
    if (grid == keys.end())
      throw ArgumentError(fmt::format("--args {}={}: {}'s advise grid sweeps only its key {}", key, value, strategy,
                                   std::find_if(keys.begin(), keys.end(), [&](const GridKey& k) {
                                     return k.strategy == strategy;
                                   })->key));
    if (std::find(grid->values.begin(), grid->values.end(), value) == grid->values.end())
      throw ArgumentError(fmt::format("--args {}={}: outside {}'s advise grid; expected {} in: {}", key, value, strategy,
                                   key, fmt::join(grid->values, ", ")));
  }
  std::vector<AdviseOption> out{AdviseOption{}};
  const Registry registry = Registry::builtin();
  for (const auto& key : keys) {
    if (!strategy.empty() && key.strategy != strategy) continue;
    for (const auto& value : key.values) {
      if (wanted.contains(key.key) && wanted.at(key.key) != value) continue;
      const std::string fixed = fixed_args(key.strategy);
      const std::string row_args = key.key + "=" + value + (fixed.empty() ? "" : " " + fixed);
      (void)registry.parse(key.strategy, row_args);  // the grid itself must be valid flags
      for (const auto& interval : advise_intervals())
        for (const auto& model : advise_models()) out.push_back(AdviseOption{key.strategy, row_args, interval, model});
    }
  }
  return out;
}

}  // namespace tessera::lb
