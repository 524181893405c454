#pragma once
// Layers in front of the runtime's network transport that a build may contain, looked up by name
// in one registry (NamedRegistry, as strategies and transports are). Release builds have none.
// Test builds configured with -DTESSERA_FAULT_INJECTION=ON have `faults` (faulty_transport.cpp):
// messages held and sends refused, the way a slow or congested network does, for the chaos soak.
//
// A layer is asked for by the environment, not by a flag, so that no user-facing flag exists
// for what only tests may use: TESSERA_TEST_TRANSPORT_FAULTS holds the `faults` layer's keys,
// comma-separated ("delay_us=300,refuse_every_ms=20,refuse_for_ms=5"). In a build without the
// layer, a run with the variable set refuses to start with one message (transport_stack.cpp).
#include <tessera/keys.hpp>
#include <tessera/named_registry.hpp>
#include <tessera/runtime/transport.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessera::detail {

struct TransportLayerEntry {
  std::string name;
  std::string summary;
  std::vector<KeySpec> keys;
  /// `inner` behind this layer, configured by its validated keys. Throws tessera::Error naming the
  /// key for values the keys' ranges cannot express (every rank alike).
  std::function<std::unique_ptr<Transport>(std::unique_ptr<Transport> inner, const Args& keys)> wrap;
};

using TransportLayers = NamedRegistry<TransportLayerEntry>;

/// The layers this build contains (see above).
const TransportLayers& transport_layers();

/// The `faults` layer: defined in faulty_transport.cpp, which only test builds compile.
TransportLayerEntry fault_layer_entry();

}  // namespace tessera::detail
