// Hang diagnostics: when an epoch is open and nothing has progressed for --tessera_hang_timeout
// seconds, every rank prints its open epochs and the job exits non-zero instead of spinning.
#include "epoch_table.hpp"

#include <tessera/runtime/timer.hpp>

#include <chrono>
#include <cstdio>
#include <thread>

namespace tessera::detail {

void EpochTable::check_hang(double now) {
  if (activity_ != activity_seen_) {  // something happened since the last check
    activity_seen_ = activity_;
    last_activity_ = now;
  }
  const double idle = now - last_activity_;
  if (idle > flags_.hang_timeout) report_hang(idle);
}

void EpochTable::report_hang(double idle_seconds) {
  std::string report = fmt::format("tessera: rank {} made no progress for {:.1f} s with {} open epoch(s):\n",
                                   rt_.rank(), idle_seconds, open_epochs_);
  epochs_.for_each([&](const EpochRecord& rec) {
    const EpochId id = rec.id;
    report += fmt::format("  {}: {}{}, sent {}, handled {}", epoch_name(id),
                          rec.opened ? "opened here" : "never opened here",
                          rec.opened ? (rec.finished ? ", finished" : ", not finished") : "", rec.sent, rec.handled);
    if (uses_waves(id) && wave_root(id) == rt_.rank()) report += fmt::format(", waves {}", rec.waves_run);
    if (!uses_waves(id)) report += fmt::format(", unacknowledged {}{}", rec.deficit, rec.engaged ? ", engaged" : "");
    if (!rec.opened && !is_rooted_epoch(id))
      report += " (a collective epoch must be opened on every rank)";
    report += "\n";
  });
  std::fputs(report.c_str(), stderr);
  std::fflush(stderr);
  // Every rank reaches its own timeout within moments of the others; give them time to print
  // before the abort tears the job down.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  fatal("hang detected: no progress for {:.1f} s (--tessera_hang_timeout={})", idle_seconds, flags_.hang_timeout);
}

}  // namespace tessera::detail
