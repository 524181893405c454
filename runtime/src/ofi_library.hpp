#pragma once
// libfabric, loaded when the ofi transport starts instead of linked into the runtime: a run over
// MPI alone then maps neither libfabric nor the provider libraries it pulls in (psm2, verbs,
// rdmacm, libnl and others: about 1.4 MB of resident memory in every process on this machine).
// The transport calls libfabric through these five entry points and through the operation tables
// of the objects they return (fi_domain, fi_endpoint, fi_cq_read and the rest are inline functions
// over those tables in libfabric's headers), so these five are all it needs to find.
#include <rdma/fabric.h>

namespace tessera::detail {

struct OfiLibrary {
  decltype(&::fi_getinfo) getinfo;
  decltype(&::fi_freeinfo) freeinfo;
  decltype(&::fi_dupinfo) dupinfo;  // dupinfo(nullptr) is fi_allocinfo()
  decltype(&::fi_fabric) fabric;
  decltype(&::fi_strerror) strerror;
};

/// The name dlopen() is given: libfabric's ABI version 1, as every 1.x release installs it.
inline constexpr const char* kOfiLibraryName = "libfabric.so.1";

/// libfabric's entry points, loaded on the first call and kept for the life of the process (one
/// library per process, shared by every runtime in it; it is never unloaded, as providers may keep
/// threads). Throws tessera::Error naming the library and the loader's reason when it cannot be
/// loaded or lacks an entry point.
const OfiLibrary& ofi_library();

}  // namespace tessera::detail
