#pragma once
/// The steal engine's per-runtime service: what every task collection of one runtime starts from
/// and reports to.
///
///   tessera::Context ctx(argc, argv);                 // installs it from --tessera_workers,
///   auto tasks = ctx.task_collection<Node>(body);     // --tessera_steal_policy, --tessera_steal_args
///   ...; tasks.process();
///   ctx.steal().totals();                             // every process() of this runtime so far
///
/// It holds the StealOptions the flags describe (a program that resolved options of its own, such
/// as a deprecated alias, replaces them with set_options before creating task collections) and
/// the running totals of the iterations its task collections ran. Each runtime has at most one,
/// registered in the runtime's service table (runtime/hooks.hpp), so two runtimes in one process
/// keep apart. A bare Runtime without one can still build task collections from explicit options.
///
/// Errors: install() twice, or of() before install(), is fatal (a programming error, not input).
#include <tessera/runtime/resident.hpp>
#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/collections/steal/steal_stats.hpp>

#include <cstdint>

namespace tessera {
class Runtime;
}

namespace tessera::collections::steal {

class StealService : public tessera::detail::Resident {
 public:
  explicit StealService(StealOptions options) : options_(options) {}

  /// Registers a service with `options` in `rt` (which owns it from then on). Fatal if one exists.
  static StealService& install(Runtime& rt, StealOptions options);
  /// `rt`'s service. Fatal if none was installed (create the runtime through tessera::Context).
  static StealService& of(Runtime& rt);
  /// `rt`'s service, or nullptr on a bare Runtime.
  static StealService* find(Runtime& rt);

  /// The options new task collections of this runtime start from.
  const StealOptions& options() const { return options_; }
  /// Replaces them (call on every rank alike, before creating the task collections that use them).
  void set_options(const StealOptions& options) { options_ = options; }

  /// Called by each task collection at the end of process(): adds its statistics to the totals.
  void record(const IterationStats& stats);
  /// Iterations run so far by all task collections of this runtime (process() calls).
  std::uint64_t iterations() const { return iterations_; }
  /// Every rank's tasks run and steals, summed over those iterations; seconds summed likewise.
  const RankStats& totals() const { return totals_; }
  double seconds() const { return seconds_; }

 private:
  StealOptions options_;
  std::uint64_t iterations_ = 0;
  RankStats totals_;
  double seconds_ = 0;
};

}  // namespace tessera::collections::steal
