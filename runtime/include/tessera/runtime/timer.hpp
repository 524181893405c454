#pragma once
/// Clocks used for instrumentation, in seconds.
///
/// `wall_time()` is monotonic wall-clock time. `thread_cpu_time()` is the CPU time consumed by
/// the calling thread: when several ranks share a core, wall time charges a handler for the time
/// other ranks ran, so object loads are measured with thread CPU time there.
///
/// `read_tsc()` is the cheap clock for intervals timed on a message's path (a handler's load, a
/// wait for work): reading the time-stamp counter costs about 10 ns here against 26 ns for
/// `wall_time()`, and both are read twice per message. Its ticks count wall time only where
/// `invariant_tsc()` holds (the counter runs at a constant rate in every power state); callers
/// convert ticks to seconds against `wall_time()` over an interval they chose.
#include <ctime>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

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

/// Whether the CPU's time-stamp counter runs at a constant rate through every power state (x86-64
/// CPUID leaf 0x80000007, EDX bit 8). False elsewhere: read_tsc() is then not a clock.
inline bool invariant_tsc() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

/// The time-stamp counter, in ticks (0 where there is none); a wall clock only if invariant_tsc().
inline double read_tsc() {
#if defined(__x86_64__)
  return static_cast<double>(__builtin_ia32_rdtsc());
#else
  return 0.0;
#endif
}

}  // namespace tessera
