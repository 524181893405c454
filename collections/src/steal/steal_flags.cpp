#include <tessera/collections/steal/steal_flags.hpp>
#include <tessera/runtime/error.hpp>

#include <sstream>

namespace tessera::collections::steal {

void StealFlags::describe(FlagTable& table) {
  table
      .option(std::string(WorkersFlag::name), workers,
              "Worker threads per rank for task collections, the rank's main thread included (" +
                  std::to_string(WorkersFlag::min) + " to " + std::to_string(WorkersFlag::max) + ")")
      .within(WorkersFlag::min, WorkersFlag::max);
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
  if (resolved_) {
    options = keys_;
    options.policy = parsed_policy_.value_or(fallback);
  } else {
    StealFlags copy = *this;
    copy.resolve();
    options = copy.options(fallback);
  }
  options.workers = workers;
  return options;
}

void StealFlags::resolve() {
  parsed_policy_.reset();
  if (policy) {
    parsed_policy_ = parse_value([&] {
      try {
        return parse_policy(*policy);
      } catch (const Error& error) {
        throw Error(std::string("--tessera_steal_policy: ") + error.what());
      }
    });
  }
  keys_ = StealOptions{};
  if (!args.empty()) {
    parse_value([&] {
      try {
        parse_steal_keys(keys_, arg_items());
      } catch (const Error& error) {
        throw Error(std::string("--tessera_steal_args: ") + error.what());
      }
    });
  }
  resolved_ = true;
}

}  // namespace tessera::collections::steal
