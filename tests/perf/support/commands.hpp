#pragma once
// What the benchmarks that start whole runs share: run a command, read the JSON summary it
// prints last, take medians. Header-only; include as "../support/commands.hpp".
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::bench {

// Runs a shell command; returns its output (stdout and stderr). Throws when it fails.
inline std::string run_command(const std::string& command) {
  std::FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start: " + command);
  std::string output;
  std::array<char, 4096> chunk{};
  for (std::size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0;) output.append(chunk.data(), n);
  const int status = pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(fmt::format("{} failed:\n{}", command, output));
  return output;
}

// The last line of `output` that opens a JSON object.
inline nlohmann::json last_json(const std::string& output, const std::string& command) {
  const std::size_t newline = output.rfind("\n{");
  const std::size_t brace = newline == std::string::npos ? (output.starts_with('{') ? 0 : newline) : newline + 1;
  if (brace == std::string::npos) throw std::runtime_error(command + ": no JSON line in:\n" + output);
  return nlohmann::json::parse(output.substr(brace, output.find('\n', brace) - brace));
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace tessera::bench
