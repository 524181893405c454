// Built instead of the libfabric transport when CMake found no libfabric: the same entry and keys,
// and a factory that refuses with one message.
#include <tessera/runtime/error.hpp>

#include "ofi_keys.hpp"
#include "transports.hpp"

namespace tessera {

TransportEntry detail::ofi_transport_entry() {
  return {"ofi", "libfabric FI_EP_RDM endpoints (not in this build: libfabric was not found)", ofi_keys(),
          [](MPI_Comm, const TransportOptions&, const Args&) -> std::unique_ptr<Transport> {
            throw Error("--tessera_transport=ofi: this build of Tessera has no libfabric transport (libfabric was "
                        "not found when it was configured; install libfabric-dev and configure again)");
          }};
}

}  // namespace tessera
