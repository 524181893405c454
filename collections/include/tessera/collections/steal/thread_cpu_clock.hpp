#pragma once
// The calling thread's CPU time, for the worker pools' per-worker figures. Read here rather
// than through the runtime's timer.hpp so that the pools stay usable with no runtime (the
// apps' kernels and the steal tests link none).

#include <ctime>

namespace tessera::collections::steal::detail {

// Seconds of CPU time the calling thread has used (arbitrary origin).
inline double thread_cpu_seconds() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace tessera::collections::steal::detail
