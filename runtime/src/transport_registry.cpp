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

Args TransportRegistry::parse(std::string_view name, std::string_view text) const {
  const TransportEntry* entry = nullptr;
  try {
    entry = &get(name);
  } catch (const ArgumentError& e) {
    throw ArgumentError(fmt::format("--tessera_transport: {}", e.what()));
  }
  return parse_args(text, entry->keys, fmt::format("--tessera_transport_args ({})", name));
}

}  // namespace tessera
