// Deliberate epoch misuse, one mode per run: each must end the job with a clear message.
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <string>

namespace {
void noop() {}
}  // namespace

int main(int argc, char** argv) {
  tessera::TerminationFlags flags;
  tessera::RuntimeOptions options;
  options.flag_groups = {&flags};
  tessera::Runtime rt(argc, argv, options);
  tessera::Termination term(rt, flags);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "finish-twice") {
    const tessera::EpochId epoch = term.open_collective();
    term.finish(epoch);
    term.finish(epoch);
  } else if (mode == "send-after-end") {
    const tessera::EpochId epoch = term.open_rooted();
    term.finish(epoch);
    term.wait(epoch);
    term.run_in(epoch, [&] { rt.send<&noop>(0); });
  } else if (mode == "collective-on-some-ranks") {
    // Only rank 0 opens the "collective" epoch: the others can never take part in its waves.
    if (rt.rank() == 0) {
      term.run_in_epoch_collective([&] { rt.send<&noop>(rt.size() - 1); });
    } else {
      rt.run_until([] { return false; });
    }
  } else {
    std::fprintf(stderr, "usage: termination_errors finish-twice|send-after-end|collective-on-some-ranks\n");
    return 2;
  }
  return 0;
}
