#pragma once
// Internal to the libfabric transport: choosing the provider (ofi_provider.cpp) for the endpoint
// (ofi_transport.cpp).
#include <mpi.h>
#include <rdma/fabric.h>

#include <string>

namespace tessera {

/// The provider chosen for this rank's endpoint. The transport takes ownership of `info`
/// (fi_freeinfo on destruction).
struct OfiSetup {
  fi_info* info = nullptr;
};

/// Collective over `comm`: finds, on every rank, the first FI_EP_RDM provider named `name` (any
/// provider when empty) with FI_MSG, FI_RMA with remote reads, and 8 bytes of remote CQ data.
/// If any rank finds none, every rank throws tessera::Error with the lowest failing rank's
/// message: for an unknown name, the list of RDM providers fi_getinfo offers here; for a provider
/// lacking a capability, its name and the capability.
OfiSetup select_provider(MPI_Comm comm, const std::string& name);

}  // namespace tessera
