// The registry of transport layers (transport_layers.hpp). The one place a build option decides
// what the library contains: the test-only fault layer is listed, and compiled, only in builds
// configured with -DTESSERA_FAULT_INJECTION=ON (runtime/CMakeLists.txt).
#include "transport_layers.hpp"

namespace tessera::detail {

const TransportLayers& transport_layers() {
  static const TransportLayers layers(
      {
#ifdef TESSERA_FAULT_INJECTION
          fault_layer_entry(),
#endif
      },
      "transport layer", "transport layers");
  return layers;
}

}  // namespace tessera::detail
