// trace_check FILE [PARENT/CHILD ...]: checks a merged trace's rules (see trace_checker.hpp) and
// that each named slice occurs inside the named parent slice; prints the counts, exits 1 on any
// broken rule.
#include <fmt/format.h>

#include <fstream>

#include "trace_checker.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: trace_check FILE [PARENT/CHILD ...]\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  const auto summary = tessera::testing::check_trace(nlohmann::json::parse(in));
  int failures = static_cast<int>(summary.errors.size());
  for (const auto& error : summary.errors) fmt::print("broken: {}\n", error);
  for (int i = 2; i < argc; ++i) {
    const std::string pair = argv[i];
    const auto slash = pair.find('/');
    const auto key = std::pair(pair.substr(0, slash), pair.substr(slash + 1));
    const auto it = summary.nested.find(key);
    const std::int64_t n = it == summary.nested.end() ? 0 : it->second;
    fmt::print("{} inside {}: {}\n", key.second, key.first.empty() ? "nothing" : key.first, n);
    if (n == 0) ++failures;
  }
  fmt::print("{} events, {} flows, {} async slices: {}\n", summary.events, summary.flows, summary.async_slices,
             failures == 0 ? "trace checked" : "TRACE BROKEN");
  return failures == 0 ? 0 : 1;
}
