#pragma once
/// How long a rank waited for work, so that waiting is not charged as load.
///
/// A wait starts at the first scheduler turn that finds nothing (Runtime::run_until) and ends
/// when a turn finds work, before that work runs. The clocks are read only then, never on every
/// empty turn. Accounting is off by default: each clock costs two reads per wait, and a wait ends
/// on the path of every message's latency. The instrumentation turns on the clock it measures
/// loads with (account); calls accumulate.
///
/// The wall clock's waits are timed on the TSC where the TSC is a wall clock (it costs less than
/// half of clock_gettime); ticks become seconds by the ratio of wall time to ticks since
/// accounting began. The thread CPU clock shows what spinning cost (sleeping costs nothing).
/// A trace, when one is on, gets an idle slice for every wait.
///
/// Not thread-safe: one per runtime, used by the thread that runs the scheduler.
#include <tessera/runtime/timer.hpp>
#include <tessera/runtime/trace.hpp>

namespace tessera::detail {

class IdleClock {
 public:
  /// Turns on the wall clock and/or the thread CPU clock.
  void account(bool wall_clock, bool cpu_clock) {
    if (wall_clock && !wall_clock_) {
      tsc_ = invariant_tsc();
      calibration_wall_ = wall_time();
      calibration_ticks_ = read_tsc();
    }
    wall_clock_ = wall_clock_ || wall_clock;
    cpu_clock_ = cpu_clock_ || cpu_clock;
  }
  void set_tracer(Tracer* tracer) { tracer_ = tracer; }

  /// A turn found nothing: opens a wait unless one is open or nothing watches waits.
  void nothing_found() {
    if (!open_ && (wall_clock_ || cpu_clock_ || tracer_)) open();
  }
  /// A turn found work (or the wait is over): closes the open wait.
  void found_work() {
    if (open_) close();
  }

  /// Seconds waited since accounting began, on the wall clock and on the thread CPU clock.
  double seconds() const { return tsc_ ? wall_ * seconds_per_tick() : wall_; }
  double cpu_seconds() const { return cpu_; }

 private:
  void open() {
    open_ = true;
    if (tracer_) [[unlikely]]
      tracer_->begin_idle();
    if (wall_clock_) wall_start_ = wall_now();
    if (cpu_clock_) cpu_start_ = thread_cpu_time();
  }
  void close() {
    open_ = false;
    if (tracer_) [[unlikely]]
      tracer_->end();
    if (wall_clock_) wall_ += wall_now() - wall_start_;
    if (cpu_clock_) cpu_ += thread_cpu_time() - cpu_start_;
  }
  double wall_now() const { return tsc_ ? read_tsc() : wall_time(); }
  double seconds_per_tick() const {
    const double ticks = read_tsc() - calibration_ticks_;
    return ticks > 0 ? (wall_time() - calibration_wall_) / ticks : 0.0;
  }

  Tracer* tracer_ = nullptr;
  double wall_ = 0;  // seconds, or TSC ticks when tsc_
  double cpu_ = 0;
  double wall_start_ = 0;
  double cpu_start_ = 0;
  bool wall_clock_ = false;
  bool cpu_clock_ = false;
  bool tsc_ = false;
  double calibration_wall_ = 0;
  double calibration_ticks_ = 0;
  bool open_ = false;  // a wait began and no turn has found work since
};

}  // namespace tessera::detail
