#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/runtime/error.hpp>

#include <fmt/format.h>

#include <charconv>
#include <limits>

namespace tessera::collections::steal {
namespace {

std::int64_t parse_integer(std::string_view item, std::string_view value, std::int64_t low, std::int64_t high) {
  std::int64_t parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc{} || end != value.data() + value.size() || parsed < low || parsed > high)
    throw Error(fmt::format("steal key '{}': expected an integer in [{}, {}]", item, low, high));
  return parsed;
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
  return "w=N random steals before lifelines (lifeline, default 1); l=N lifeline graph radix "
         "(default 2); n=N tasks between network polls (default 256); threshold=N queued tasks a "
         "success_only victim must exceed (default 1); capacity=N tasks per rank's deque "
         "(default 65536); retentive=0|1 re-seed each rank with the tasks it ran (default 0); "
         "seed=N victim choice seed; spin_us=N idle polling before napping (default 20); "
         "sleep_us=N longest idle nap (default 100)";
}

void parse_steal_keys(StealOptions& options, const std::vector<std::string>& items) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw Error(fmt::format("steal key '{}': expected key=value", item));
    const std::string_view key = std::string_view(item).substr(0, eq);
    const std::string_view value = std::string_view(item).substr(eq + 1);
    if (key == "w") options.w = static_cast<std::int32_t>(parse_integer(item, value, 0, kMax));
    else if (key == "l") options.l = static_cast<std::int32_t>(parse_integer(item, value, 2, kMax));
    else if (key == "n") options.n = static_cast<std::int32_t>(parse_integer(item, value, 1, kMax));
    else if (key == "threshold") options.threshold = parse_integer(item, value, 0, kMax);
    else if (key == "capacity") options.capacity = parse_integer(item, value, 2, std::int64_t{1} << 40);
    else if (key == "retentive") options.retentive = parse_integer(item, value, 0, 1) == 1;
    else if (key == "seed") options.seed = static_cast<std::uint64_t>(parse_integer(item, value, 0, kMax));
    else if (key == "spin_us") options.spin_us = static_cast<std::int32_t>(parse_integer(item, value, 0, kMax));
    else if (key == "sleep_us") options.sleep_us = static_cast<std::int32_t>(parse_integer(item, value, 1, kMax));
    else
      throw Error(fmt::format("unknown steal key '{}' in '{}': expected w, l, n, threshold, capacity, "
                              "retentive, seed, spin_us or sleep_us", key, item));
  }
}

}  // namespace tessera::collections::steal
