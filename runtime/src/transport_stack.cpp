// The runtime's transport stack, composed here and nowhere else: the network the registry names,
// the node's shared-memory rings in front of it, and (test builds only) injected faults around both.
#include <tessera/runtime/transport.hpp>
#include <tessera/runtime/transport_registry.hpp>

#include "faulty_transport.hpp"
#include "transports.hpp"

#include <optional>

namespace tessera {

std::unique_ptr<Transport> make_transport(MPI_Comm comm, TransportOptions options) {
  // Read first: every rank refuses a malformed (or, in a build without it, any) fault setting alike.
  const std::optional<detail::TransportFaults> faults = detail::faults_from_environment();
  const TransportRegistry& registry = TransportRegistry::builtin();
  const Args keys = registry.parse(options.network, options.network_args);  // throws alike on every rank
  std::unique_ptr<Transport> transport =
      detail::with_node_rings(comm, registry.find(options.network)->make(comm, options, keys), options);
  if (!faults) return transport;
  return detail::make_faulty_transport(std::move(transport), *faults);
}

}  // namespace tessera
