#pragma once
/// Epochs and distributed termination detection.
///
/// Collective epochs (every rank opens them) end by the four-counter method of Mattern
/// ("Algorithms for distributed termination detection", Distributed Computing 2(3), 1987), in
/// waves over the runtime's spanning tree rooted at rank 0: each rank counts the messages of the
/// epoch it sent and handled; a wave sums both counts over all ranks, each rank answering once it
/// has finished its own part of the epoch; the epoch has ended when two consecutive waves see
/// equal sums that agree with each other. Counts only grow, so two equal waves mean no message
/// was in flight in between. The root starts the next wave after a back-off that starts at 1 us
/// and doubles while the epoch is busy (up to --tessera_wave_backoff_max_us), so a short epoch
/// ends within microseconds of its last message and an idle rank does not flood the network with
/// waves.
///
/// Rooted epochs (one rank opens them) end by Dijkstra-Scholten ("Termination detection for
/// diffusing computations", IPL 11(1), 1980): the first message of the epoch a rank receives
/// makes its sender the rank's parent; every other message is acknowledged once handled; a rank
/// acknowledges its parent once all of its own messages are acknowledged, and the epoch has ended
/// when the root's are. `--tessera_rooted_detection=wave` uses waves rooted at the root instead.
/// These are the tree termination and finish constructs of seeds 000 and 004.
///
/// Nesting: an epoch opened while another is current is a unit of work of the outer one, counted
/// as a message sent when it opens and handled when it ends, so the outer epoch never ends while
/// an inner one has work. Detection messages are runtime system messages: never counted.
///
/// Every message carries its epoch; a handler runs in the epoch of its message, and what it sends
/// belongs to that epoch unless it opens a new one.
#include <tessera/runtime/runtime.hpp>
#include <tessera/termination/epoch.hpp>
#include <tessera/termination/flags.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace tessera {

namespace detail {
class EpochTable;
}

class Termination : public tessera::detail::Resident {
 public:
  /// Collective: every rank creates the termination layer once per runtime, after the runtime.
  Termination(Runtime& rt, const TerminationFlags& flags);
  ~Termination();
  Termination(const Termination&) = delete;
  Termination& operator=(const Termination&) = delete;

  /// The termination layer of runtime `rt` (fatal if none was created), e.g. from a handler.
  static Termination& of(Runtime& rt);

  Runtime& runtime() { return rt_; }

  /// Opens a collective epoch: every rank must call it, in the same order as its other
  /// collective epochs. The epoch does not end before every rank has called finish().
  EpochId open_collective();
  /// Opens a rooted epoch with this rank as its root; it does not end before finish() here.
  EpochId open_rooted();
  /// Declares that this rank (collective) or the root (rooted) adds no more work to `epoch`
  /// except from the epoch's own handlers. Finishing twice, or an unknown epoch, is fatal.
  void finish(EpochId epoch);
  /// Runs fn() with `epoch` current, so the messages it sends belong to the epoch.
  void run_in(EpochId epoch, const std::function<void()>& fn);

  /// True once `epoch` has ended as seen from this rank. Collective epochs end on every rank;
  /// rooted epochs are known to end only on their root.
  bool terminated(EpochId epoch) const;
  /// Calls `done` from the progress loop when `epoch` ends here (at once if it has).
  void on_termination(EpochId epoch, std::function<void()> done);
  /// Runs the scheduler until `epoch` has ended here.
  void wait(EpochId epoch);
  /// Runs the scheduler until every epoch in `epochs` has ended here.
  void wait_all(const std::vector<EpochId>& epochs);

  /// Collective: opens an epoch, runs fn() in it, finishes, and returns once it has ended.
  void run_in_epoch_collective(const std::function<void()>& fn);
  /// Opens a rooted epoch here, runs fn() in it, finishes, and returns once it has ended.
  void run_in_epoch_rooted(const std::function<void()>& fn);
  /// Non-blocking forms: return the epoch at once; `done` runs when it ends.
  EpochId start_collective(const std::function<void()>& fn, std::function<void()> done);
  EpochId start_rooted(const std::function<void()>& fn, std::function<void()> done);

  /// Counted messages of `epoch` this rank sent and handled (for diagnostics and tests).
  std::pair<std::uint64_t, std::uint64_t> counts(EpochId epoch) const;
  /// Waves the root has run for `epoch` so far (0 where this rank is not the wave root).
  std::uint64_t waves(EpochId epoch) const;

 private:
  Runtime& rt_;
  std::unique_ptr<detail::EpochTable> table_;
};

}  // namespace tessera
