#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport_registry.hpp>

#include "transports.hpp"

#include <fmt/format.h>

namespace tessera {

const TransportRegistry& TransportRegistry::builtin() {
  // One line per transport, each marked "transport: NAME": tests/runtime/CMakeLists.txt reads the
  // names from these lines to run the transport suites over every transport.
  static const TransportRegistry registry({
      detail::mpi_transport_entry(),  // transport: mpi
      detail::ofi_transport_entry(),  // transport: ofi
  });
  return registry;
}

const TransportEntry* TransportRegistry::find(std::string_view name) const {
  for (const auto& entry : entries_)
    if (entry.name == name) return &entry;
  return nullptr;
}

std::vector<std::string> TransportRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) out.push_back(entry.name);
  return out;
}

Args TransportRegistry::parse(std::string_view name, std::string_view text) const {
  const TransportEntry* entry = find(name);
  if (!entry)
    throw Error(fmt::format("--tessera_transport={} is unknown: use one of {}", name, fmt::join(names(), ", ")));
  return parse_args(text, entry->keys, fmt::format("--tessera_transport_args ({})", name));
}

std::string TransportRegistry::help() const {
  std::string out;
  for (const auto& entry : entries_) {
    out += fmt::format("{}\n  {}\n", entry.name, entry.summary);
    out += entry.keys.empty() ? std::string("  (no keys)\n") : describe_keys(entry.keys);
  }
  return out;
}

}  // namespace tessera
