#pragma once
/// Wall-clock and thread-CPU timing of a tile's particle update, in seconds.
///
/// Wall time is what a rank waits; thread CPU time (CLOCK_THREAD_CPUTIME_ID) excludes the time the
/// OS gave the core to another rank, so it is the load to use when ranks share cores.
namespace tessera::pic {

struct UpdateTime {
  double wall_s = 0.0;
  double cpu_s = 0.0;

  UpdateTime& operator+=(const UpdateTime& other) {
    wall_s += other.wall_s;
    cpu_s += other.cpu_s;
    return *this;
  }
};

/// Starts both clocks on construction; `elapsed()` reads both.
class Stopwatch {
 public:
  Stopwatch();
  UpdateTime elapsed() const;

 private:
  UpdateTime start_;
};

}  // namespace tessera::pic
