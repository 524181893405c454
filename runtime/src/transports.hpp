#pragma once
// Internal: each network transport's registry entry, defined beside the transport itself
// (mpi_transport.cpp, ofi_transport.cpp or ofi_stub.cpp) and listed in transport_registry.cpp.
#include <tessera/runtime/transport_registry.hpp>

namespace tessera::detail {

/// The MPI tag of every active message the MPI transport sends on Tessera's communicator (its
/// bulk payloads use the next one).
inline constexpr int kMpiTransportTag = 7001;

TransportEntry mpi_transport_entry();
TransportEntry ofi_transport_entry();

/// `network` with shared-memory rings in front of it between the ranks of this node, when
/// `options.shared_memory` and the node has more than one rank of `comm`; else `network` itself.
/// Collective over `comm`. Throws tessera::Error for a ring size below 4096 bytes or not a
/// multiple of 64.
std::unique_ptr<Transport> with_node_rings(MPI_Comm comm, std::unique_ptr<Transport> network,
                                           const TransportOptions& options);

}  // namespace tessera::detail
