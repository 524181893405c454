#pragma once
/// The scheduler's loop between turns: what a rank does while it waits for work.
///
/// run_until runs turns until a predicate holds. A turn that finds nothing starts a wait: the rank
/// busy-polls for the spin window, testing the network alone a few times between whole turns (a
/// turn's housekeeping would otherwise delay noticing a message), then yields, then sleeps for
/// growing naps (idle_policy.hpp). The idle clock (idle_clock.hpp) times the waits, so waiting is
/// not charged as load.
///
/// The spin window is --tessera_idle_spin_us, or with auto what the node allows: ranks with a core
/// of their own spin long unless they are later seen being descheduled (SpinGovernor); ranks known
/// to share cores, and a window set by hand, keep one short window.
///
/// Not thread-safe: one per runtime, used by the thread that runs the scheduler.
#include <tessera/runtime/flags.hpp>
#include <tessera/runtime/idle_clock.hpp>
#include <tessera/runtime/idle_policy.hpp>

namespace tessera::detail {

class IdleLoop {
 public:
  /// Takes the windows from `flags`; `ranks_share_cores`: this node's ranks have fewer cores than
  /// ranks (node_cpus.hpp), which auto answers with the short window.
  void configure(const RuntimeFlags& flags, bool ranks_share_cores) {
    yield_us_ = flags.idle_yield_us;
    sleep_max_us_ = flags.idle_sleep_max_us;
    if (flags.idle_spin_us != RuntimeFlags::kIdleSpinAuto) {
      spin_ = SpinGovernor(flags.idle_spin_us, flags.idle_spin_us);
    } else if (ranks_share_cores) {
      spin_ = SpinGovernor(RuntimeFlags::kIdleSpinSharedUs, RuntimeFlags::kIdleSpinSharedUs);
    } else {
      spin_ = SpinGovernor(RuntimeFlags::kIdleSpinOwnCoreUs, RuntimeFlags::kIdleSpinSharedUs);
    }
  }

  /// Runs `turn()` (true when it did anything) until `done()` holds; while spinning, `await()`
  /// tests the network alone (true when something arrived).
  template <class Done, class Turn, class Await>
  void run_until(Done&& done, Turn&& turn, Await&& await) {
    IdleBackoff idle(spin_, yield_us_, sleep_max_us_);
    while (!done()) {
      if (turn()) {
        idle.reset();
      } else {
        clock_.nothing_found();
        if (idle.spinning() && await()) continue;
        idle.wait();
      }
    }
    clock_.found_work();
  }

  /// The spin window chosen at start-up, microseconds (with auto, a rank with a core of its own
  /// while it is not descheduled).
  double spin_us() const { return spin_.spin_seconds(0) * 1e6; }
  /// How many long spins showed this rank being descheduled; 0 with a window set by hand.
  unsigned long descheduled() const { return spin_.descheduled(); }
  IdleClock& clock() { return clock_; }
  const IdleClock& clock() const { return clock_; }

 private:
  SpinGovernor spin_{RuntimeFlags::kIdleSpinSharedUs, RuntimeFlags::kIdleSpinSharedUs};
  double yield_us_ = 0;
  double sleep_max_us_ = 0;
  IdleClock clock_;
};

}  // namespace tessera::detail
