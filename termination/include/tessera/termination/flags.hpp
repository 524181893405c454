#pragma once
/// Flags of the termination layer.
#include <tessera/runtime/flags.hpp>

#include <string>

namespace tessera {

struct TerminationFlags : FlagGroup {
  /// Seconds without progress (no message handled, no epoch ended) while an epoch is open before
  /// every rank prints its open epochs and the job exits non-zero; 0 disables the check.
  double hang_timeout = 300;
  /// Detector for rooted epochs: "ds" (Dijkstra-Scholten acknowledgements) or "wave"
  /// (four-counter waves over the spanning tree rooted at the epoch's root).
  std::string rooted_detection = "ds";
  /// Longest pause, in microseconds, between two waves of an epoch that is still busy.
  double wave_backoff_max_us = 2000;

  void describe(FlagTable& table) override;
  void validate() const override;
};

}  // namespace tessera
