// Built instead of the libfabric transport when CMake found no libfabric.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>

namespace tessera {

std::unique_ptr<Transport> make_ofi_transport(void*, MpiTransportOptions) {
  throw Error("--tessera_transport=ofi: this build of Tessera has no libfabric transport (libfabric was not "
              "found when it was configured; install libfabric-dev and configure again)");
}

}  // namespace tessera
