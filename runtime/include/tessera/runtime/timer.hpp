#pragma once
/// Clocks used for instrumentation, in seconds.
///
/// `wall_time()` is monotonic wall-clock time. `thread_cpu_time()` is the CPU time consumed by
/// the calling thread: when several ranks share a core, wall time charges a handler for the time
/// other ranks ran, so object loads are measured with thread CPU time there.
#include <ctime>

namespace tessera {

/// Monotonic wall-clock time in seconds (arbitrary origin).
inline double wall_time() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// CPU time of the calling thread in seconds (arbitrary origin).
inline double thread_cpu_time() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace tessera
