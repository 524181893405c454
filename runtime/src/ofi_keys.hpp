#pragma once
// Internal: the ofi transport's keys (`--tessera_transport_args` with `--tessera_transport=ofi`),
// built with or without libfabric, so the flags and their help are the same in every build.
#include <tessera/keys.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace tessera {

struct OfiKeys {
  std::string provider;             ///< as fi_info names it ("tcp;ofi_rxm"); empty: the first that fits
  std::size_t eager_bytes = 65536;  ///< larger messages go by rendezvous (an RMA read)
  double peer_timeout = 60;         ///< seconds a peer may refuse every message; 0: forever
};

/// The key list (defaults as OfiKeys's).
std::vector<KeySpec> ofi_keys();
/// The validated keys read into OfiKeys.
OfiKeys ofi_keys_of(const Args& args);

}  // namespace tessera
