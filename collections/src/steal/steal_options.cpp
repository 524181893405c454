#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/keys.hpp>
#include <tessera/runtime/error.hpp>

#include <fmt/format.h>

#include <limits>
#include <string>

namespace tessera::collections::steal {
namespace {

constexpr double kInt32Max = std::numeric_limits<std::int32_t>::max();

// The steal keys, with StealOptions' defaults (steal_options.hpp), through Tessera's one key=value
// parser (tessera/keys.hpp).
std::vector<KeySpec> steal_keys() {
  const StealOptions d;
  return {
      integer_key("w", std::to_string(d.w), "random steals before lifelines (lifeline)", 0, kInt32Max),
      integer_key("l", std::to_string(d.l), "lifeline graph radix", 2, kInt32Max),
      integer_key("n", std::to_string(d.n), "tasks between network polls", 1, kInt32Max),
      integer_key("threshold", std::to_string(d.threshold), "queued tasks a success_only victim must exceed", 0,
                  kInt32Max),
      integer_key("capacity", std::to_string(d.capacity), "tasks per rank's deque", 2, double(std::int64_t{1} << 40)),
      boolean_key("retentive", d.retentive ? "1" : "0", "re-seed each rank with the tasks it ran (0 or 1)"),
      integer_key("seed", std::to_string(d.seed), "victim choice seed", 0, kInt32Max),
      integer_key("spin_us", std::to_string(d.spin_us), "microseconds of idle polling before napping", 0, kInt32Max),
      integer_key("sleep_us", std::to_string(d.sleep_us), "longest idle nap in microseconds", 1, kInt32Max),
  };
}

}  // namespace

std::string_view to_string(Policy policy) {
  switch (policy) {
    case Policy::random: return "random";
    case Policy::lifeline: return "lifeline";
    case Policy::success_only: return "success_only";
  }
  return "random";
}

Policy parse_policy(std::string_view text) {
  for (Policy p : {Policy::random, Policy::lifeline, Policy::success_only})
    if (text == to_string(p)) return p;
  throw Error(fmt::format("unknown steal policy '{}': expected random, lifeline or success_only", text));
}

std::string steal_keys_help() {
  std::string out;
  for (const KeySpec& key : steal_keys())
    out += fmt::format("{}{}={}: {}", out.empty() ? "" : "; ", key.name, key.default_value, key.meaning);
  return out;
}

void parse_steal_keys(StealOptions& options, const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += item + " ";
  const std::vector<KeySpec> keys = steal_keys();
  const Args args = parse_args(text, keys, "steal keys");
  // Only what was given: the program may have chosen other defaults in `options`.
  if (args.given("w")) options.w = static_cast<std::int32_t>(args.integer("w"));
  if (args.given("l")) options.l = static_cast<std::int32_t>(args.integer("l"));
  if (args.given("n")) options.n = static_cast<std::int32_t>(args.integer("n"));
  if (args.given("threshold")) options.threshold = args.integer("threshold");
  if (args.given("capacity")) options.capacity = args.integer("capacity");
  if (args.given("retentive")) options.retentive = args.boolean("retentive");
  if (args.given("seed")) options.seed = static_cast<std::uint64_t>(args.integer("seed"));
  if (args.given("spin_us")) options.spin_us = static_cast<std::int32_t>(args.integer("spin_us"));
  if (args.given("sleep_us")) options.sleep_us = static_cast<std::int32_t>(args.integer("sleep_us"));
}

}  // namespace tessera::collections::steal
