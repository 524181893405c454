#include "trace_checker.hpp"

#include <fmt/format.h>

#include <set>
#include <tuple>

namespace tessera::testing {

TraceSummary check_trace(const nlohmann::json& trace) {
  TraceSummary summary;
  auto fail = [&](const std::string& what, const nlohmann::json& event) {
    if (summary.errors.size() < 20) summary.errors.push_back(what + ": " + event.dump());
  };
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace["traceEvents"].is_array()) {
    summary.errors.push_back("not a {\"traceEvents\": [...]} object");
    return summary;
  }
  std::map<std::pair<int, int>, double> last_ts;
  std::map<std::pair<int, int>, std::vector<std::string>> open;
  std::map<std::string, std::pair<int, double>> flow_start;  // id -> (count, ts)
  std::map<std::string, std::pair<int, double>> flow_end;
  std::multiset<std::tuple<int, std::string, std::string>> async_open;
  for (const auto& e : trace["traceEvents"]) {
    ++summary.events;
    const std::string ph = e.value("ph", "");
    if (ph == "M") continue;
    if (!e.contains("ts") || !e.contains("pid") || !e.contains("tid")) {
      fail("event without ts, pid or tid", e);
      continue;
    }
    const int pid = e["pid"].get<int>();
    const auto thread = std::pair(pid, e["tid"].get<int>());
    const double ts = e["ts"].get<double>();
    if (last_ts.contains(thread) && ts < last_ts[thread]) fail("timestamp decreases on its thread", e);
    last_ts[thread] = ts;
    if (ph == "B") {
      const std::string name = e.value("name", "");
      auto& stack = open[thread];
      summary.nested[{stack.empty() ? std::string() : stack.back(), name}] += 1;
      stack.push_back(name);
    } else if (ph == "E") {
      auto& stack = open[thread];
      if (stack.empty()) {
        fail("E without an open B on its thread", e);
        continue;
      }
      summary.slices[{pid, stack.back()}] += 1;
      stack.pop_back();
    } else if (ph == "s" || ph == "f") {
      auto& ends = ph == "s" ? flow_start : flow_end;
      auto& [count, at] = ends[e["id"].dump()];
      ++count;
      at = ts;
    } else if (ph == "b") {
      async_open.emplace(pid, e.value("cat", ""), e["id"].dump());
    } else if (ph == "e") {
      const auto it = async_open.find({pid, e.value("cat", ""), e["id"].dump()});
      if (it == async_open.end()) fail("async e without its b", e);
      else {
        async_open.erase(it);
        ++summary.async_slices;
      }
    } else {
      fail("unexpected phase type", e);
    }
  }
  for (const auto& [thread, stack] : open)
    if (!stack.empty())
      summary.errors.push_back(fmt::format("pid {} tid {}: {} slices never end, innermost '{}'", thread.first,
                                           thread.second, stack.size(), stack.back()));
  for (const auto& [id, start] : flow_start) {
    const auto it = flow_end.find(id);
    if (start.first != 1 || it == flow_end.end() || it->second.first != 1) {
      summary.errors.push_back(fmt::format("flow {}: {} starts, {} ends", id, start.first,
                                           it == flow_end.end() ? 0 : it->second.first));
    } else if (it->second.second < start.second) {
      summary.errors.push_back(fmt::format("flow {} ends at {} before it starts at {}", id, it->second.second,
                                           start.second));
    } else {
      ++summary.flows;
    }
  }
  for (const auto& [id, end] : flow_end)
    if (!flow_start.contains(id)) summary.errors.push_back(fmt::format("flow {} ends but never starts", id));
  if (!async_open.empty())
    summary.errors.push_back(fmt::format("{} async slices never end", async_open.size()));
  return summary;
}

}  // namespace tessera::testing
