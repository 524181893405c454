#pragma once
/// What a rank does while it has nothing to run.
///
/// Busy-polling gives the lowest latency but, with more ranks than cores, an idle rank that
/// spins steals the core from the rank that has work. So an idle rank first spins for a short
/// window (a reply usually arrives within microseconds), then calls sched_yield for a while
/// (cheap when the core is free, fair when it is not), then sleeps with exponentially growing
/// naps, bounded so a message is still noticed within about `sleep_max_us`.
///
/// How long to spin depends on whether the rank has a core to itself, which start-up can only
/// guess (runtime/src/node_cpus.cpp: the CPUs the node's ranks may run on, the cgroup's CPU quota). Ranks of
/// several emulated hosts, or of other jobs, can still share the cores unseen. So a SpinGovernor
/// watches the long spins: a rank that spun for a millisecond of wall time but got much less of
/// it on the CPU was descheduled, meaning another process wanted that core, and it spins only
/// the shared window (`shared_us`) for a hold of one second, then tries the long window again.
/// Each try that is descheduled again doubles the hold (up to 64 s), so a rank that shares its
/// core for good spends at most one long spin a minute finding out; one that is not resets it.
#include <sched.h>

#include <algorithm>
#include <ctime>

#include <tessera/runtime/timer.hpp>

namespace tessera {

/// One rank's spin window, shortened while the rank is seen being descheduled. Not thread-safe:
/// one per runtime, used by the thread that runs the scheduler.
class SpinGovernor {
 public:
  /// Spin `own_core_us` while the core seems the rank's own, `shared_us` for a hold after a spin
  /// that got less than `kBusyShare` of its wall time on the CPU: `hold_s` seconds, doubled for
  /// each such spin in a row (at most kMaxHolds doublings) and reset by a long spin that kept its
  /// core. With both windows equal (the flag set by hand, or ranks known to share cores) the
  /// window never changes.
  SpinGovernor(double own_core_us, double shared_us, double hold_s = 1.0)
      : own_s_(own_core_us * 1e-6), shared_s_(shared_us * 1e-6), hold_s_(hold_s) {}

  /// The spin window in seconds for an idle wait starting at wall time `now`.
  double spin_seconds(double now) const { return now < shared_until_ ? shared_s_ : own_s_; }

  /// Whether a wait's spin is worth measuring (only windows that can shrink are).
  bool adaptive() const { return own_s_ > shared_s_; }

  /// A spin from wall time `wall_start` to `wall_end` used `cpu` seconds of this thread's CPU.
  /// Returns true when that shows the rank being descheduled (and the window is now shortened).
  bool observe(double wall_start, double wall_end, double cpu) {
    const double wall = wall_end - wall_start;
    if (wall < kMinMeasured) return false;
    if (cpu >= kBusyShare * wall) {
      in_a_row_ = 0;
      return false;
    }
    shared_until_ = wall_end + hold_s_ * static_cast<double>(1u << in_a_row_);
    in_a_row_ = std::min(in_a_row_ + 1, kMaxHolds);
    ++descheduled_;
    return true;
  }

  /// How many spins so far showed the rank being descheduled.
  unsigned long descheduled() const { return descheduled_; }

  /// Spins are measured from this long after the wait began, so short waits (a reply within
  /// microseconds) cost no clock reads. A spin of a few hundred microseconds already keeps a
  /// core from a rank that shares it, so the measurement starts early.
  static constexpr double kMeasureAfter = 2e-4;
  /// A measured stretch shorter than this says too little (a timer tick, a page fault).
  static constexpr double kMinMeasured = 3e-4;
  /// The hold doubles at most this many times: 1 s, 2 s, ... 64 s.
  static constexpr unsigned kMaxHolds = 6;
  /// A spinning thread that owns its core gets nearly all of the wall time on the CPU.
  static constexpr double kBusyShare = 0.8;

 private:
  double own_s_;
  double shared_s_;
  double hold_s_;
  double shared_until_ = -1;
  unsigned in_a_row_ = 0;  // descheduled spins since the last long spin that kept its core
  unsigned long descheduled_ = 0;
};

class IdleBackoff {
 public:
  IdleBackoff(double spin_us, double yield_us, double sleep_max_us)
      : spin_s_(spin_us * 1e-6), yield_s_(yield_us * 1e-6), sleep_max_us_(sleep_max_us) {}

  /// The spin window comes from `governor` at the start of each wait, and long spins report to
  /// it. `governor` must outlive this object.
  IdleBackoff(SpinGovernor& governor, double yield_us, double sleep_max_us)
      : spin_s_(0), yield_s_(yield_us * 1e-6), sleep_max_us_(sleep_max_us),
        governor_(governor.adaptive() ? &governor : nullptr) {
    if (governor_ == nullptr) spin_s_ = governor.spin_seconds(0);
  }

  /// Call after a turn that found work.
  void reset() {
    if (measure_wall_ >= 0) report(wall_time());
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
      if (idle_since_ < 0) {
        idle_since_ = now;
        if (governor_ != nullptr) spin_s_ = governor_->spin_seconds(now);
      }
      if (now - idle_since_ < spin_s_) {
        if (governor_ != nullptr && measure_wall_ < 0 && now - idle_since_ >= SpinGovernor::kMeasureAfter) {
          measure_wall_ = now;
          measure_cpu_ = thread_cpu_time();
        }
        return;
      }
      if (measure_wall_ >= 0) report(now);
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
  void report(double now) {
    governor_->observe(measure_wall_, now, thread_cpu_time() - measure_cpu_);
    measure_wall_ = -1;
  }

  enum class Phase { spin, yield, sleep };
  static constexpr unsigned kSpinCheck = 16;

  double spin_s_;
  double yield_s_;
  double sleep_max_us_;
  double idle_since_ = -1;
  double nap_us_ = 10;
  unsigned empty_turns_ = 0;
  Phase phase_ = Phase::spin;
  SpinGovernor* governor_ = nullptr;
  double measure_wall_ = -1;  // when the measured part of this spin began; -1: not measuring
  double measure_cpu_ = 0;
};

}  // namespace tessera
