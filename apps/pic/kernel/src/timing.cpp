#include "tessera/pic/timing.hpp"

#include <ctime>

namespace tessera::pic {

namespace {

double read(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

UpdateTime now() { return {read(CLOCK_MONOTONIC), read(CLOCK_THREAD_CPUTIME_ID)}; }

}  // namespace

Stopwatch::Stopwatch() : start_(now()) {}

UpdateTime Stopwatch::elapsed() const {
  const UpdateTime end = now();
  return {end.wall_s - start_.wall_s, end.cpu_s - start_.cpu_s};
}

}  // namespace tessera::pic
