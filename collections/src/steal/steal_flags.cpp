#include <tessera/collections/steal/steal_flags.hpp>
#include <tessera/runtime/error.hpp>

#include <sstream>

namespace tessera::collections::steal {

void StealFlags::describe(FlagTable& table) {
  // More threads than this on one rank is a typing error, not a configuration.
  table
      .option("--tessera_workers", workers,
              "Worker threads per rank for task collections, the rank's main thread included (1 to 4096)")
      .within(1, 4096);
  table.option("--tessera_steal_policy", policy,
               "Victim policy of task collections between ranks: random, lifeline or success_only");
  table.option("--tessera_steal_args", args, "The steal policy's keys, \"key=value ...\": " + steal_keys_help());
}

std::vector<std::string> StealFlags::arg_items() const {
  std::vector<std::string> items;
  std::istringstream in(args);
  for (std::string item; in >> item;) items.push_back(item);
  return items;
}

StealOptions StealFlags::options(Policy fallback) const {
  StealOptions options;
  options.policy = policy ? parse_policy(*policy) : fallback;
  parse_steal_keys(options, arg_items());
  options.workers = workers;
  return options;
}

void StealFlags::validate() const {
  if (policy) {
    try {
      (void)parse_policy(*policy);
    } catch (const Error& error) {
      throw Error(std::string("--tessera_steal_policy: ") + error.what());
    }
  }
  try {
    StealOptions scratch;
    parse_steal_keys(scratch, arg_items());
  } catch (const Error& error) {
    throw Error(std::string("--tessera_steal_args: ") + error.what());
  }
}

}  // namespace tessera::collections::steal
