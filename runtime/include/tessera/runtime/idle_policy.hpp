#pragma once
/// What a rank does while it has nothing to run.
///
/// Busy-polling gives the lowest latency but, with more ranks than cores, an idle rank that
/// spins steals the core from the rank that has work. So an idle rank first spins for a short
/// window (a reply usually arrives within microseconds), then calls sched_yield for a while
/// (cheap when the core is free, fair when it is not), then sleeps with exponentially growing
/// naps, bounded so a message is still noticed within about `sleep_max_us`.
#include <sched.h>

#include <algorithm>
#include <ctime>

#include <tessera/runtime/timer.hpp>

namespace tessera {

class IdleBackoff {
 public:
  IdleBackoff(double spin_us, double yield_us, double sleep_max_us)
      : spin_s_(spin_us * 1e-6), yield_s_(yield_us * 1e-6), sleep_max_us_(sleep_max_us) {}

  /// Call after a turn that found work.
  void reset() {
    idle_since_ = -1;
    empty_turns_ = 0;
    nap_us_ = 10;
    phase_ = Phase::spin;
  }

  /// True while in the busy-polling window (before yielding or sleeping).
  bool spinning() const { return phase_ == Phase::spin; }

  /// Call after a turn that found nothing.
  void wait() {
    if (phase_ == Phase::spin) {
      // The clock is read once every kSpinCheck empty turns: a read costs about as much as a
      // turn, and the spin window is hundreds of turns long. The window starts at the first read.
      if (++empty_turns_ % kSpinCheck != 0) return;
      const double now = wall_time();
      if (idle_since_ < 0) idle_since_ = now;
      if (now - idle_since_ < spin_s_) return;
      phase_ = Phase::yield;
    }
    if (phase_ == Phase::yield) {
      if (wall_time() - idle_since_ < spin_s_ + yield_s_) {
        sched_yield();
        return;
      }
      phase_ = Phase::sleep;
    }
    const double nap = std::min(nap_us_, sleep_max_us_);
    timespec ts{0, static_cast<long>(nap * 1000)};
    nanosleep(&ts, nullptr);
    nap_us_ = std::min(2 * nap_us_, sleep_max_us_);
  }

 private:
  enum class Phase { spin, yield, sleep };
  static constexpr unsigned kSpinCheck = 16;

  double spin_s_;
  double yield_s_;
  double sleep_max_us_;
  double idle_since_ = -1;
  double nap_us_ = 10;
  unsigned empty_turns_ = 0;
  Phase phase_ = Phase::spin;
};

}  // namespace tessera
