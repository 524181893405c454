// What a joining process learns of the running ranks' collectively created targets
// (target_table.hpp): on the wire, the count of collective ids made, then per live target in
// creation order its id, its type name's length and the name.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/target_table.hpp>

#include <algorithm>
#include <cstring>

namespace tessera::detail {
namespace {

void put(std::vector<std::byte>& out, const void* data, std::size_t length) {
  const auto* begin = static_cast<const std::byte*>(data);
  out.insert(out.end(), begin, begin + length);
}

}  // namespace

std::vector<std::byte> TargetTable::live_state() const {
  std::vector<LiveTarget> live;
  for (const auto& [id, type] : types_) live.push_back({id, type});
  std::sort(live.begin(), live.end(), [](const LiveTarget& a, const LiveTarget& b) { return a.id < b.id; });
  std::vector<std::byte> out;
  put(out, &collective_ids_, sizeof collective_ids_);
  for (const LiveTarget& target : live) {
    const std::uint64_t length = target.type.size();
    put(out, &target.id, sizeof target.id);
    put(out, &length, sizeof length);
    put(out, target.type.data(), target.type.size());
  }
  return out;
}

void TargetTable::expect(std::span<const std::byte> live_state) {
  std::size_t at = 0;
  const auto take = [&](void* into, std::size_t length) {
    if (live_state.size() - at < length) fatal("a joining process received a truncated list of the running ranks' collections");
    std::memcpy(into, live_state.data() + at, length);
    at += length;
  };
  std::uint64_t made = 0;
  take(&made, sizeof made);
  std::deque<LiveTarget> expected;
  while (at < live_state.size()) {
    LiveTarget target;
    std::uint64_t length = 0;
    take(&target.id, sizeof target.id);
    take(&length, sizeof length);
    if (length > live_state.size() - at) fatal("a joining process received a truncated list of the running ranks' collections");
    target.type.resize(length);
    take(target.type.data(), length);
    expected.push_back(std::move(target));
  }
  collective_ids_ = made;
  expected_ = std::move(expected);
  claimed_.clear();
}

std::optional<TargetTable::LiveTarget> TargetTable::type_mismatch(std::uint64_t id) {
  const auto it = claimed_.find(id);
  if (it == claimed_.end()) return std::nullopt;
  LiveTarget expected{id, std::move(it->second)};
  claimed_.erase(it);
  const auto registered = types_.find(id);
  if (registered != types_.end() && registered->second == expected.type) return std::nullopt;
  return expected;
}

}  // namespace tessera::detail
