// tessera-trace-merge DIR -o FILE: joins DIR/rank.<r>.json (written by --tessera_trace=DIR) into
// one trace for Perfetto or chrome://tracing. Useful after a run that was killed, since a finished
// run's rank 0 writes DIR/trace.json itself.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/trace.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

int main(int argc, char** argv) {
  CLI::App app{"Joins the per-rank trace files of --tessera_trace=DIR into one Chrome trace-event JSON file"};
  std::string dir;
  std::string out;
  app.add_option("dir", dir, "The directory given to --tessera_trace")->required()->check(CLI::ExistingDirectory);
  app.add_option("-o,--output", out, "The merged trace to write")->required();
  CLI11_PARSE(app, argc, argv);
  try {
    tessera::merge_trace(dir, out);
  } catch (const tessera::Error& e) {
    fmt::print(stderr, "tessera-trace-merge: {}\n", e.what());
    return 1;
  }
  fmt::print("{}\n", out);
  return 0;
}
