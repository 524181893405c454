// Deciding how a search runs: the checks between the app's flags and the runtime's steal flags.
#include "tessera/apps/search_mode.hpp"

#include <tessera/runtime/error.hpp>

#include "tessera/apps/error.hpp"

namespace tessera::apps {

using collections::steal::parse_policy;

SearchMode resolve_search_mode(std::optional<std::int64_t> workers, const collections::steal::StealFlags& flags,
                               const std::optional<std::string>& policy, const std::vector<std::string>& steal_keys,
                               int ranks) {
  if (policy) for_flag("--policy", [&] { return parse_policy(*policy); });
  if (policy && flags.parsed_policy() && parse_policy(*policy) != *flags.parsed_policy()) {
    throw Error("--policy " + *policy + " and --tessera_steal_policy " + *flags.policy +
                " disagree: give one (--policy is the older spelling)");
  }
  SearchMode mode;
  mode.distributed = flags.given() || policy.has_value() || !steal_keys.empty() || ranks > 1;
  mode.steal = flags.options(parse_policy(policy.value_or("lifeline")));
  for_flag("--steal", [&] { collections::steal::parse_steal_keys(mode.steal, steal_keys); });
  // The count Context read is its default 1 unless --tessera_workers was given; --workers, the
  // older spelling, reaches the worker team the same way.
  if (workers) mode.steal.workers = static_cast<std::int32_t>(*workers);
  if (!mode.distributed) mode.pool_workers = static_cast<std::size_t>(workers.value_or(0));
  return mode;
}

}  // namespace tessera::apps
