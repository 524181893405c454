#pragma once
// tessera-bench-lulesh's plumbing (private to the benchmark): starting a command with its
// whole-process wall time and peak resident size, reading tessera-lulesh's JSON line and the
// original LULESH's printed summary, medians, and the machine's description.
//
// A command runs as `/bin/sh -c "exec env VAR=... PROGRAM ARGS"` in a fork()ed child whose stdout
// and stderr come back through one pipe and whose stdin is /dev/null (mpirun would otherwise
// forward the benchmark's). The shell and env exec into the program, so the child pid is the
// program (or mpirun) itself: the wall time is steady_clock from just before fork() to the return
// of wait4(), and the peak resident size is wait4's ru_maxrss, which Linux reports as the largest
// of the process and its reaped descendants (not their sum: for an mpirun it is the largest rank
// or mpirun itself, so only direct runs are read for memory).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace lulesh_bench {

struct Process {
  std::string output;        // stdout and stderr, interleaved as written
  int status = 0;            // wait4's status
  double wall_s = 0.0;       // fork to reaped, the whole process
  double max_rss_bytes = 0;  // ru_maxrss (KiB on Linux) in bytes
  bool ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }
};

inline Process run_process(const std::string& command) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed for: " + command);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed for: " + command);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  Process p;
  std::array<char, 4096> chunk{};
  for (;;) {
    const ssize_t n = ::read(fds[0], chunk.data(), chunk.size());
    if (n > 0) {
      p.output.append(chunk.data(), static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  struct rusage usage {};
  while (::wait4(pid, &p.status, 0, &usage) < 0)
    if (errno != EINTR) throw std::runtime_error("wait4 failed for: " + command);
  p.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  p.max_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;
  return p;
}

// The command line that runs `program_and_args` with the environment additions `env`
// ("VAR=value ...", may be empty) in place of the shell.
inline std::string exec_command(const std::string& env, const std::string& program_and_args) {
  return env.empty() ? "exec " + program_and_args : fmt::format("exec env {} {}", env, program_and_args);
}

// The last line of `output` that opens a JSON object, parsed; nullopt when there is none or it
// does not parse.
inline std::optional<nlohmann::json> last_json(const std::string& output) {
  const std::size_t newline = output.rfind("\n{");
  const std::size_t brace = newline == std::string::npos ? (output.starts_with('{') ? 0 : newline) : newline + 1;
  if (brace == std::string::npos) return std::nullopt;
  try {
    return nlohmann::json::parse(output.substr(brace, output.find('\n', brace) - brace));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// What the original LULESH prints at its end (VerifyAndWriteFinalOutput in lulesh-util.cc).
struct OriginalSummary {
  std::int64_t iterations = 0;
  std::string origin_energy;  // as printed: %12.6e
  double elapsed_s = 0.0;     // its "( E overall)" figure, 8 digits ("Elapsed time" has 2)
  double grind_us = 0.0;      // "Grind time (us/z/c) = G (per dom)"
  double max_abs_diff = 0.0, total_abs_diff = 0.0, max_rel_diff = 0.0;
};

// Throws naming what is missing when `output` has no complete summary.
inline OriginalSummary parse_original(const std::string& output) {
  const auto find = [&](const char* pattern, const char* what) {
    std::smatch m;
    if (!std::regex_search(output, m, std::regex(pattern)))
      throw std::runtime_error(fmt::format("no \"{}\" line in the original's output", what));
    return m[1].str();
  };
  OriginalSummary s;
  s.iterations = std::stoll(find(R"(Iteration count\s*=\s*(\d+))", "Iteration count"));
  s.origin_energy = find(R"(Final Origin Energy\s*=\s*(\S+))", "Final Origin Energy");
  s.grind_us = std::stod(find(R"(Grind time \(us/z/c\)\s*=\s*(\S+) \(per dom\))", "Grind time"));
  s.elapsed_s = std::stod(find(R"(\(\s*(\S+) overall\))", "Grind time ... overall"));
  s.max_abs_diff = std::stod(find(R"(MaxAbsDiff\s*=\s*(\S+))", "MaxAbsDiff"));
  s.total_abs_diff = std::stod(find(R"(TotalAbsDiff\s*=\s*(\S+))", "TotalAbsDiff"));
  s.max_rel_diff = std::stod(find(R"(MaxRelDiff\s*=\s*(\S+))", "MaxRelDiff"));
  return s;
}

inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The machine without its name: processors, CPU model, memory, kernel.
inline nlohmann::ordered_json machine() {
  nlohmann::ordered_json m;
  m["nproc"] = ::sysconf(_SC_NPROCESSORS_ONLN);
  m["hardware_concurrency"] = std::thread::hardware_concurrency();
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.starts_with("model name")) {
      const std::size_t colon = line.find(':');
      m["cpu_model"] = colon == std::string::npos ? line : line.substr(line.find_first_not_of(' ', colon + 1));
      break;
    }
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.starts_with("MemTotal:")) {
      m["mem_total_kib"] = std::stoll(line.substr(9));
      break;
    }
  struct utsname u {};
  if (::uname(&u) == 0) m["os"] = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  return m;
}

}  // namespace lulesh_bench
