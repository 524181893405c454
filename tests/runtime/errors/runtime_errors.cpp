// Deliberate misuse, one mode per run, to check that each error prints one clear message and
// the job exits non-zero on every rank instead of hanging.
#include "transports.hpp"  // the MPI transport's tag
#include <tessera/runtime.hpp>

#include <csignal>
#include <cstring>
#include <stdexcept>

namespace {

void never_called(int) {}

void throws(int value) {
  if (value > 0) throw std::runtime_error("deliberate failure");
}

int pongs = 0;
void pong(int) { ++pongs; }
void ping(tessera::Runtime& rt, int round) {
  if (round == 100) std::raise(SIGKILL);  // the peer disappears in the middle of the exchange
  rt.send<&pong>(0, round);
}

}  // namespace

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "bad-rank") {
    if (rt.rank() == 0) rt.send<&never_called>(rt.size() + 3, 1);
  } else if (mode == "handler-throws") {
    if (rt.rank() == 0) rt.send<&throws>(rt.size() - 1, 1);
  } else if (mode == "unknown-handler") {
    if (rt.rank() == 0) {
      // A message whose envelope names a handler id no rank has, as a mismatched binary would send.
      // Wire format: a batch of records, each a 64-bit length followed by envelope and arguments.
      struct {
        std::uint64_t length = sizeof(tessera::Envelope);
        tessera::Envelope envelope;
      } record;
      record.envelope.handler = 999999;
      MPI_Send(&record, sizeof record, MPI_BYTE, rt.size() - 1, tessera::detail::kMpiTransportTag, rt.comm());
    }
  } else if (mode == "peer-dies") {
    // Rank 1 dies on the 101st ping; rank 0 goes on pinging it. Run under an mpirun that lets the
    // job outlive a rank (Open MPI: --enable-recovery), so what stops rank 0 is its own transport.
    if (rt.rank() == 0) {
      for (int round = 0;; ++round) {
        rt.send<&ping>(1, round);
        rt.run_until([round] { return pongs == round + 1; });
      }
    }
    rt.run_until([] { return false; });
  } else {
    std::fprintf(stderr, "usage: runtime_errors bad-rank|handler-throws|unknown-handler|peer-dies\n");
    return 2;
  }
  rt.drain();
  return 0;
}
