#include "spawn_ranks.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tessera::bench {

nlohmann::json run_on_ranks(int ranks, int repeat) {
  // Open MPI refuses to run as root without these; harmless otherwise.
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string command = fmt::format("{} {} -np {} '{}' --distributed-part --repeat={} 2>&1", TESSERA_BENCH_MPIRUN,
                                          TESSERA_BENCH_MPIRUN_FLAGS, ranks, self, repeat);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error(fmt::format("could not start '{}'", command));
  std::string output;
  std::array<char, 4096> chunk;
  while (std::fgets(chunk.data(), chunk.size(), pipe) != nullptr) output += chunk.data();
  const int status = pclose(pipe);
  // The JSON object is the last line that starts with '{'.
  std::string line;
  std::istringstream lines(output);
  for (std::string next; std::getline(lines, next);)
    if (!next.empty() && next.front() == '{') line = next;
  if (status != 0 || line.empty())
    throw std::runtime_error(fmt::format("'{}' failed (status {}):\n{}", command, status, output));
  return nlohmann::json::parse(line);
}

double load_average() {
  std::ifstream in("/proc/loadavg");
  double one_minute = -1;
  in >> one_minute;
  return in ? one_minute : -1;
}

}  // namespace tessera::bench
