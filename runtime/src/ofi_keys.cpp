#include "ofi_keys.hpp"

namespace tessera {

std::vector<KeySpec> ofi_keys() {
  return {
      text_key("provider", "",
               "libfabric provider as fi_info names it (tcp;ofi_rxm, shm, sockets, verbs;ofi_rxm); "
               "default: the first FI_EP_RDM provider with FI_MSG and FI_RMA"),
      integer_key("eager_bytes", "65536",
                  "messages up to this size go eagerly into pre-posted receives of that size, larger ones "
                  "by rendezvous (an RMA read)",
                  32, 1 << 30),
      real_key("peer_timeout", "60",
               "seconds a once-connected peer may refuse every message (as a killed rank does) before the "
               "job stops naming it; idle ranks check their peers with a heartbeat every second; 0: forever",
               0),
  };
}

OfiKeys ofi_keys_of(const Args& args) {
  OfiKeys keys;
  keys.provider = args.text("provider");
  keys.eager_bytes = static_cast<std::size_t>(args.integer("eager_bytes"));
  keys.peer_timeout = args.real("peer_timeout");
  return keys;
}

}  // namespace tessera
