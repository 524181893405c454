#include "killer.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>

#include <unistd.h>

namespace tessera::soak {

Killer::Killer(bool armed, double seconds) {
  if (!armed) return;
  thread_ = std::thread([this, seconds] {
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) return;
    std::fprintf(stderr, "tessera-soak: --kill_every: rank process %d kills itself now\n", static_cast<int>(getpid()));
    std::fflush(stderr);
    ::kill(getpid(), SIGKILL);
  });
}

Killer::~Killer() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

}  // namespace tessera::soak
