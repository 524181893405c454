#pragma once
// Transport fault injection, for tests only (the chaos soak's): a transport in front of the runtime's own
// that delays messages and refuses sends for a while, the way a slow or congested network does
// (FI_EAGAIN), while keeping what the runtime relies on: every message arrives once, bytes
// intact, and the messages from one rank to another in the order they were sent.
//
// Configured by the environment variable TESSERA_TEST_TRANSPORT_FAULTS, a comma-separated list of
//   delay_us=D         hold each message 0 to D microseconds (drawn per message) before sending it
//   refuse_every_ms=E  every E milliseconds, refuse every send ...
//   refuse_for_ms=R    ... for R milliseconds; the refused messages leave, in order, once it ends
//   seed=N             seed of the delays (default 1)
// A message to a rank leaves only after every earlier message to that rank, so a pair's order is
// kept whatever the delays. Held messages leave only from this rank's own transport calls (poll,
// probe, await, progress): unlike a real network, nothing delivers them while the rank blocks in
// MPI outside Tessera, so a program that does that right after a send can stall here. Only builds configured with -DTESSERA_FAULT_INJECTION=ON accept the
// variable; the others refuse to start with one message when it is set (faults_from_environment).
#include <tessera/runtime/transport.hpp>

#include <cstdint>
#include <memory>
#include <optional>

namespace tessera::detail {

struct TransportFaults {
  double delay_s = 0;        ///< most a message is held, seconds
  double refuse_every_s = 0; ///< period of the refusal windows, seconds (0: none)
  double refuse_for_s = 0;   ///< length of each refusal window, seconds
  std::uint64_t seed = 1;
};

/// The faults TESSERA_TEST_TRANSPORT_FAULTS asks for; nullopt when it is unset or empty. Throws
/// tessera::Error naming the variable for a malformed value, and, in a build without
/// TESSERA_FAULT_INJECTION, whenever it is set.
std::optional<TransportFaults> faults_from_environment();

/// `inner` behind the faults.
std::unique_ptr<Transport> make_faulty_transport(std::unique_ptr<Transport> inner, const TransportFaults& faults);

}  // namespace tessera::detail
