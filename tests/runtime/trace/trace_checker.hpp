#pragma once
// Checks a merged Chrome trace (what --tessera_trace writes) the way a viewer relies on it, and
// counts what it holds, for the trace tests.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tessera::testing {

struct TraceSummary {
  std::vector<std::string> errors;  ///< every broken rule, with the event that broke it
  /// Completed B/E slices by (pid, name).
  std::map<std::pair<int, std::string>, std::int64_t> slices;
  /// Slices whose parent is the named slice: (parent, child) -> count.
  std::map<std::pair<std::string, std::string>, std::int64_t> nested;
  std::int64_t flows = 0;          ///< flows with both ends
  std::int64_t async_slices = 0;   ///< b/e pairs
  std::int64_t events = 0;
};

/// Rules: the file is {"traceEvents": [...]}; per (pid, tid) timestamps never decrease and every
/// B has its E (properly nested, nothing left open); every flow id has one `s` and one `f`, the
/// `f` no earlier than the `s`; every async `b` has its `e` (same pid, category, id).
TraceSummary check_trace(const nlohmann::json& trace);

}  // namespace tessera::testing
