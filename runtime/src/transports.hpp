#pragma once
// Internal: each network transport's registry entry, defined beside the transport itself
// (mpi_transport.cpp, ofi_transport.cpp or ofi_stub.cpp) and listed in transport_registry.cpp.
#include <tessera/runtime/transport_registry.hpp>

namespace tessera::detail {

TransportEntry mpi_transport_entry();
TransportEntry ofi_transport_entry();

}  // namespace tessera::detail
