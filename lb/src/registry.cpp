// The one list of built-in strategies, and lookup by name.

#include "tessera/lb/registry.hpp"

#include <fmt/format.h>

#include "tessera/lb/greedy_lb.hpp"
#include "tessera/lb/hier_lb.hpp"
#include "tessera/lb/simple_lbs.hpp"
#include "tessera/lb/tempered_lb.hpp"

namespace tessera::lb {

std::vector<StrategyInfo> builtin_strategies() {
  return {
      {"GreedyLB",
       "centralized: overloaded ranks shed their smallest objects, rank 0 gives the largest to the "
       "least-loaded rank (Lifflander et al. HPDC'12, Algorithm 1); mode=full is LPT over all objects",
       GreedyLB::keys(), [](const Args& a) { return std::make_unique<GreedyLB>(GreedyLB::from_args(a)); }},
      {"HierLB",
       "hierarchical: shed up an n-ary rank tree, serving underloaded subtrees on the way, then deal "
       "leftovers down greedily (Lifflander et al. HPDC'12, Algorithm 2)",
       HierLB::keys(), [](const Args& a) { return std::make_unique<HierLB>(HierLB::from_args(a)); }},
      {"TemperedLB",
       "distributed: gossip of underloaded ranks, then CMF-sampled transfers, iterated with the best "
       "proposal kept (Lifflander et al. Cluster'21, Algorithms 1-6)",
       TemperedLB::keys(), [](const Args& a) { return std::make_unique<TemperedLB>(TemperedLB::from_args(a)); }},
      {"GrapevineLB",
       "distributed: TemperedLB with Menon and Kale's original choices, one iteration (Lifflander et al. "
       "Cluster'21, Algorithms 1-2)",
       TemperedLB::grapevine_keys(),
       [](const Args& a) { return std::make_unique<TemperedLB>(TemperedLB::grapevine_from_args(a)); }},
      {"RandomLB", "every migratable object to a uniformly random rank (for testing migration)",
       RandomLB::keys(), [](const Args& a) { return std::make_unique<RandomLB>(RandomLB::from_args(a)); }},
      {"RotateLB", "every migratable object to rank (r + 1) mod P (for testing migration)",
       RotateLB::keys(), [](const Args&) { return std::make_unique<RotateLB>(); }},
  };
}

Registry::Registry(std::vector<StrategyInfo> strategies) : strategies_(std::move(strategies)) {}

const StrategyInfo* Registry::find(std::string_view name) const {
  for (const auto& info : strategies_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

const StrategyInfo& Registry::get(std::string_view name) const {
  if (const StrategyInfo* info = find(name)) return *info;
  throw ArgumentError(fmt::format("unknown LB strategy '{}'; valid strategies: {}", name,
                                  fmt::join(names(), ", ")));
}

std::unique_ptr<Strategy> Registry::create(std::string_view name, std::string_view args) const {
  const StrategyInfo& info = get(name);
  return info.make(parse_args(args, info.keys, info.name));
}

void Registry::validate(std::string_view name, std::string_view args) const {
  const StrategyInfo& info = get(name);
  (void)parse_args(args, info.keys, info.name);
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& info : strategies_) out.push_back(info.name);
  return out;
}

std::string Registry::help() const {
  std::string out;
  for (const auto& info : strategies_) {
    out += fmt::format("{}\n  {}\n", info.name, info.summary);
    out += info.keys.empty() ? std::string("  (no keys)\n") : describe_keys(info.keys);
  }
  return out;
}

}  // namespace tessera::lb
