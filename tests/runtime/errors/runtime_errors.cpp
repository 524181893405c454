// Deliberate misuse, one mode per run, to check that each error prints one clear message and
// the job exits non-zero on every rank instead of hanging.
#include <tessera/runtime.hpp>

#include <cstring>
#include <stdexcept>

namespace {

void never_called(int) {}

void throws(int value) {
  if (value > 0) throw std::runtime_error("deliberate failure");
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
      MPI_Send(&record, sizeof record, MPI_BYTE, rt.size() - 1, tessera::kMpiTransportTag, rt.comm());
    }
  } else {
    std::fprintf(stderr, "usage: runtime_errors bad-rank|handler-throws|unknown-handler\n");
    return 2;
  }
  rt.drain();
  return 0;
}
