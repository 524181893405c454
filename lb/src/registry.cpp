// The one list of built-in strategies, and lookup by name.

#include "tessera/lb/registry.hpp"

#include <fmt/format.h>

#include "tessera/lb/greedy_lb.hpp"
#include "tessera/lb/hier_lb.hpp"
#include "tessera/lb/simple_lbs.hpp"
#include "tessera/lb/tempered_lb.hpp"

namespace tessera::lb {
namespace {

// A factory holding a copy of the strategy's converted options.
template <class S, class Options>
StrategyFactory factory(Options options) {
  return [options = std::move(options)] { return std::make_unique<S>(options); };
}

}  // namespace

std::vector<StrategyInfo> builtin_strategies() {
  return {
      {"GreedyLB",
       "centralized: overloaded ranks shed their smallest objects, rank 0 gives the largest to the "
       "least-loaded rank (Lifflander et al. HPDC'12, Algorithm 1); mode=full is LPT over all objects",
       GreedyLB::keys(), [](const Args& a) { return factory<GreedyLB>(GreedyLB::from_args(a)); }},
      {"HierLB",
       "hierarchical: shed up an n-ary rank tree, serving underloaded subtrees on the way, then deal "
       "leftovers down greedily (Lifflander et al. HPDC'12, Algorithm 2)",
       HierLB::keys(), [](const Args& a) { return factory<HierLB>(HierLB::from_args(a)); }},
      {"TemperedLB",
       "distributed: gossip of underloaded ranks, then CMF-sampled transfers, iterated with the best "
       "proposal kept (Lifflander et al. Cluster'21, Algorithms 1-6)",
       TemperedLB::keys(), [](const Args& a) { return factory<TemperedLB>(TemperedLB::from_args(a)); }},
      {"GrapevineLB",
       "distributed: TemperedLB with Menon and Kale's original choices, one iteration (Lifflander et al. "
       "Cluster'21, Algorithms 1-2)",
       TemperedLB::grapevine_keys(),
       [](const Args& a) { return factory<TemperedLB>(TemperedLB::grapevine_from_args(a)); }},
      {"RandomLB", "every migratable object to a uniformly random rank (for testing migration)",
       RandomLB::keys(), [](const Args& a) { return factory<RandomLB>(RandomLB::from_args(a)); }},
      {"RotateLB", "every migratable object to rank (r + 1) mod P (for testing migration)",
       RotateLB::keys(), [](const Args&) -> StrategyFactory { return [] { return std::make_unique<RotateLB>(); }; }},
  };
}

StrategySpec Registry::parse(std::string_view name, std::string_view args) const {
  ++parses_;
  const StrategyInfo& info = get(name);
  return StrategySpec{info.name, std::string(args), info.configure(parse_args(args, info.keys, info.name))};
}

std::unique_ptr<Strategy> Registry::create(std::string_view name, std::string_view args) const {
  return parse(name, args).make();
}

}  // namespace tessera::lb
