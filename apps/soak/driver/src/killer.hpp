#pragma once
// --kill_every: one rank, drawn from the seed and the restart count, kills itself with SIGKILL at
// a moment drawn from the same, between 0.5 S and 1.5 S after the start: mid-message,
// mid-balancing or mid-checkpoint alike. mpirun then ends the job; the harness restarts it.
#include <condition_variable>
#include <mutex>
#include <thread>

namespace tessera::soak {

class Killer {
 public:
  /// Arms the kill on this rank when `armed`, `seconds` from now.
  Killer(bool armed, double seconds);
  /// Disarms: a run that finishes first is not killed.
  ~Killer();
  Killer(const Killer&) = delete;
  Killer& operator=(const Killer&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace tessera::soak
