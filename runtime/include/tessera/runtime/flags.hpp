#pragma once
/// Runtime flags: every flag starts with `--tessera_`, is parsed with CLI11, and is removed from
/// argv before the application parses it. `--tessera_help` lists every flag of every layer.
///
/// Each layer contributes its flags as a FlagGroup; the parser is handed all groups at start-up
/// so the runtime never needs to know the names of flags of layers above it.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace tessera {

/// A set of flags owned by one layer.
class FlagGroup {
 public:
  virtual ~FlagGroup() = default;
  /// Adds this group's options (all named `--tessera_...`) to `app`.
  virtual void add_to(CLI::App& app) = 0;
  /// Checks values after parsing; throws tessera::Error naming the flag on a bad value.
  virtual void validate() const {}
};

/// Flags of the runtime layer itself.
struct RuntimeFlags : FlagGroup {
  std::string log_level = "warn";  ///< trace, debug, info, warn, error, critical, off
  // The spin window, by default (auto, stored as kIdleSpinAuto), follows what the node allows:
  // ranks that each have a core of their own (the node's ranks are no more than the CPUs in the
  // union of their affinity masks and within their cgroup's quota) spin for kIdleSpinOwnCoreUs,
  // as MPI does in a blocking call, so a rank waiting for the slowest one wakes within a poll;
  // ranks that share cores spin kIdleSpinSharedUs and give the core away within a fraction of a
  // millisecond. A rank seen descheduled while spinning long (other hosts' ranks or jobs on the
  // same cores) spins kIdleSpinSharedUs for the next second (idle_policy.hpp).
  static constexpr double kIdleSpinAuto = -1;
  static constexpr double kIdleSpinOwnCoreUs = 10000;
  static constexpr double kIdleSpinSharedUs = 50;
  double idle_spin_us = kIdleSpinAuto;  ///< busy-poll this long after the last work before yielding
  double idle_yield_us = 200;      ///< then sched_yield this long before sleeping
  double idle_sleep_max_us = 250;  ///< sleeps grow from 10 us up to this bound while idle
  int tree_fanout = 4;             ///< branching factor of the spanning tree for collectives
  std::size_t coalesce_bytes = 16384;  ///< a destination's batch leaves once it holds this much
  bool shm = true;                     ///< shared-memory rings between the ranks of a node
  std::size_t shm_ring_bytes = 0;      ///< bytes per ring; 0: automatic (up to 1 MiB)
  std::string transport = "mpi";       ///< network between ranks: mpi or ofi (libfabric)
  std::string ofi_provider;            ///< libfabric provider; empty: the first that fits
  std::size_t ofi_eager_bytes = 65536; ///< ofi: larger messages go by rendezvous
  double ofi_peer_timeout = 60;        ///< ofi: seconds an unreachable peer is waited for; 0: forever
  bool help = false;

  void add_to(CLI::App& app) override;
  void validate() const override;
};

/// Outcome of parsing: whether help was requested, and its text.
struct ParsedFlags {
  bool help = false;
  std::string help_text;
};

/// Parses and removes every `--tessera_` argument from argc/argv (a value may follow as the next
/// argument or after '='). Throws tessera::Error for an unknown `--tessera_` flag (naming the
/// closest valid one) or a bad value.
ParsedFlags parse_flags(int& argc, char** argv, const std::vector<FlagGroup*>& groups);

/// The valid flag closest to `name` by edit distance, for "did you mean" messages.
std::string closest_flag(const std::string& name, const std::vector<std::string>& valid);

}  // namespace tessera
