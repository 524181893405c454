#include <tessera/runtime/handler_registry.hpp>

#include <algorithm>
#include <mutex>
#include <vector>

namespace tessera::detail {
namespace {

// Function-local statics: constructed on first use, so registrations from other translation
// units' static initializers never see an unconstructed table.
std::vector<HandlerEntry>& table() {
  static std::vector<HandlerEntry> entries;
  return entries;
}

std::once_flag& frozen() {
  static std::once_flag flag;
  return flag;
}

}  // namespace

HandlerId register_handler(std::string_view name, Invoker invoke, HandlerId* slot) {
  table().push_back(HandlerEntry{name, invoke, slot});
  return kUnassignedHandler;
}

void freeze_handler_ids() {
  std::call_once(frozen(), [] {
    auto& entries = table();
    std::sort(entries.begin(), entries.end(),
              [](const HandlerEntry& a, const HandlerEntry& b) { return a.name < b.name; });
    for (std::size_t i = 0; i < entries.size(); ++i) *entries[i].slot = static_cast<HandlerId>(i);
  });
}

const HandlerEntry* find_handler(HandlerId id) {
  const auto& entries = table();
  return id < entries.size() ? &entries[id] : nullptr;
}

std::string_view readable_handler_name(std::string_view slot_name) {
  // GCC and Clang spell the slot as "... [with auto F = <handler>; ...]".
  constexpr std::string_view key = "F = ";
  const auto begin = slot_name.find(key);
  if (begin == std::string_view::npos) return slot_name;
  const auto from = begin + key.size();
  const auto end = slot_name.find_first_of(";]", from);
  return slot_name.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
}

}  // namespace tessera::detail
