// Deciding how a search runs: the checks between the app's flags and the runtime's steal flags.
#include "tessera/apps/search_mode.hpp"

#include <stdexcept>

namespace tessera::apps {
namespace {
// More threads than this in one process is a typing error, not a configuration.
constexpr std::int64_t kMaxWorkers = 4096;
}  // namespace

using collections::steal::parse_policy;

SearchMode resolve_search_mode(std::optional<std::int64_t> workers, const collections::steal::StealFlags& flags,
                               const std::optional<std::string>& policy, const std::vector<std::string>& steal_keys,
                               int ranks) {
  if (workers && (*workers < 1 || *workers > kMaxWorkers)) {
    throw std::invalid_argument("--workers is " + std::to_string(*workers) + ": expected an integer in [1, " +
                                std::to_string(kMaxWorkers) + "]");
  }
  if (policy && flags.policy && parse_policy(*policy) != parse_policy(*flags.policy)) {
    throw std::invalid_argument("--policy " + *policy + " and --tessera_steal_policy " + *flags.policy +
                                " disagree: give one (--policy is the older spelling)");
  }
  SearchMode mode;
  mode.pool_workers = static_cast<std::size_t>(workers.value_or(0));
  mode.distributed = flags.given() || policy.has_value() || !steal_keys.empty() || ranks > 1 || flags.workers > 1;
  mode.steal = flags.options(parse_policy(policy.value_or("lifeline")));
  collections::steal::parse_steal_keys(mode.steal, steal_keys);
  if (mode.distributed && mode.pool_workers > 0) {
    throw std::invalid_argument("--workers cannot be combined with a distributed search (--tessera_steal_policy, "
                                "--tessera_steal_args, --tessera_workers or several ranks): for threads inside "
                                "each rank use --tessera_workers");
  }
  return mode;
}

}  // namespace tessera::apps
