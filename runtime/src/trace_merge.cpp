// Joining the ranks' trace files into one (see merge_trace in trace.hpp).
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/trace.hpp>

#include <fmt/format.h>

#include <fstream>

namespace tessera {

void merge_trace(const std::filesystem::path& dir, const std::filesystem::path& out) {
  std::ofstream merged(out, std::ios::trunc);
  if (!merged) throw Error(fmt::format("cannot write the merged trace {}", out.string()));
  merged << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  int rank = 0;
  for (;; ++rank) {
    const std::filesystem::path file = dir / fmt::format("rank.{}.json", rank);
    if (!std::filesystem::exists(file)) break;
    std::ifstream in(file);
    if (!in) throw Error(fmt::format("cannot read the trace file {}", file.string()));
    // One event per line; a run killed mid-write leaves a last line cut short, which is dropped.
    std::string line;
    while (std::getline(in, line)) {
      if (in.eof() || line.empty() || line.front() != '{') continue;  // eof: no newline, cut short
      if (line.back() == ',') line.pop_back();
      if (!first) merged << ",\n";
      merged << line;
      first = false;
    }
  }
  if (rank == 0)
    throw Error(fmt::format("{} holds no trace: expected rank.0.json (written by --tessera_trace={})", dir.string(),
                            dir.string()));
  merged << "\n]}\n";
  if (!merged.flush()) throw Error(fmt::format("writing the merged trace {} failed", out.string()));
}

}  // namespace tessera
