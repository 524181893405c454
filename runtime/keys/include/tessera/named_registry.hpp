#pragma once
/// The one registry of named extensions, each with a one-line summary and its keys (keys.hpp):
/// LB strategies (lb/registry.hpp) and network transports (runtime/transport_registry.hpp) are
/// both lists of entries looked up by name, refused alike when the name is unknown, and printed
/// alike by their help flags (--tessera_help_lb, --tessera_help_transports).
///
/// `Entry` has `std::string name`, `std::string summary` and `std::vector<KeySpec> keys`, and
/// whatever its owner builds from (a strategy factory, a transport factory).
#include <tessera/keys.hpp>

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

namespace tessera {

template <class Entry>
class NamedRegistry {
 public:
  /// `kind` names an entry in messages, singular and plural: {"LB strategy", "strategies"}.
  NamedRegistry(std::vector<Entry> entries, std::string kind, std::string kinds)
      : entries_(std::move(entries)), kind_(std::move(kind)), kinds_(std::move(kinds)) {}

  /// The entry named `name`, or nullptr.
  const Entry* find(std::string_view name) const {
    for (const auto& entry : entries_)
      if (entry.name == name) return &entry;
    return nullptr;
  }
  /// The entry named `name`. Throws ArgumentError "unknown <kind> '<name>'; valid <kinds>: a, b".
  const Entry& get(std::string_view name) const {
    if (const Entry* entry = find(name)) return *entry;
    throw ArgumentError(fmt::format("unknown {} '{}'; valid {}: {}", kind_, name, kinds_, fmt::join(names(), ", ")));
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : entries_) out.push_back(entry.name);
    return out;
  }
  const std::vector<Entry>& entries() const { return entries_; }
  /// Every entry with its summary and keys: "NAME\n  summary\n" and describe_keys' lines.
  std::string help() const {
    std::string out;
    for (const auto& entry : entries_) {
      out += fmt::format("{}\n  {}\n", entry.name, entry.summary);
      out += entry.keys.empty() ? std::string("  (no keys)\n") : describe_keys(entry.keys);
    }
    return out;
  }

 private:
  std::vector<Entry> entries_;
  std::string kind_;
  std::string kinds_;
};

}  // namespace tessera
