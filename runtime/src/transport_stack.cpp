// The runtime's transport stack, composed here and nowhere else: the network the registry names,
// the node's shared-memory rings in front of it, and the transport layers the environment asks
// for (transport_layers.hpp: test builds only) around both.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>
#include <tessera/runtime/transport_registry.hpp>

#include "transport_layers.hpp"
#include "transports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace tessera {

namespace {

constexpr const char* kFaultsVariable = "TESSERA_TEST_TRANSPORT_FAULTS";

/// The `faults` layer and its keys when TESSERA_TEST_TRANSPORT_FAULTS is set, else nullptr.
/// Throws alike on every rank when it is set in a build without the layer, or malformed.
const detail::TransportLayerEntry* requested_faults(Args* keys) {
  const char* text = std::getenv(kFaultsVariable);
  if (text == nullptr || *text == '\0') return nullptr;
  const detail::TransportLayerEntry* layer = detail::transport_layers().find("faults");
  if (layer == nullptr)
    throw Error(fmt::format("{} is set, but this build has no transport fault injection (it is for tests only: "
                            "configure with -DTESSERA_FAULT_INJECTION=ON, or unset it)",
                            kFaultsVariable));
  std::string spec = text;  // comma-separated, as an environment variable is easiest to write
  std::replace(spec.begin(), spec.end(), ',', ' ');
  *keys = parse_args(spec, layer->keys, kFaultsVariable);
  return layer;
}

}  // namespace

std::unique_ptr<Transport> make_transport(MPI_Comm comm, TransportOptions options) {
  // Read first: every rank refuses a malformed (or, in a build without it, any) fault setting alike.
  Args fault_keys;
  const detail::TransportLayerEntry* faults = requested_faults(&fault_keys);
  const TransportRegistry& registry = TransportRegistry::builtin();
  const Args keys = registry.parse(options.network, options.network_args);  // throws alike on every rank
  std::unique_ptr<Transport> transport =
      detail::with_node_rings(comm, registry.find(options.network)->make(comm, options, keys), options);
  if (faults == nullptr) return transport;
  return faults->wrap(std::move(transport), fault_keys);
}

}  // namespace tessera
