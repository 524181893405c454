#pragma once
// Internal to the libfabric transport: choosing the provider (ofi_provider.cpp) for the endpoint
// (ofi_transport.cpp).
#include "ofi_keys.hpp"

#include <mpi.h>
#include <rdma/fabric.h>

#include <cstdint>
#include <functional>
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

/// The error message when no provider fits: `name` is unknown here (`offers(0)` is false), or the
/// first of FI_MSG, FI_RMA, FI_READ, FI_REMOTE_READ for which `offers(cap)` is false, or else the
/// modes. `offers(caps)`: whether a provider `name` (any, when empty) has FI_EP_RDM endpoints
/// with `caps`. `rdm_providers` lists what this machine offers. Separate from fi_getinfo so that
/// a provider lacking a capability can be tested where every provider has them all.
std::string explain_no_provider(const std::string& name, const std::function<bool(std::uint64_t caps)>& offers,
                                const std::string& rdm_providers);

}  // namespace tessera
