#pragma once
/// Runtime flags of the LB manager.
///
///   --tessera_lb_name=NAME          balance with strategy NAME (see --tessera_help_lb)
///   --tessera_lb_interval=N|auto    ... after every phase p with p % N == 0 (default 1: every phase),
///                                   or when the imbalance has cost more than balancing (lb/auto_interval.hpp)
///   --tessera_lb_args="k=v ..."     the strategy's arguments, validated against its keys
///   --tessera_lb_model=MODEL        what a strategy takes an object's next load to be: persistence
///                                   (the last phase's, the default), median:N or linear:N over the
///                                   last N phases (lb/load_model.hpp)
///   --tessera_lb_file=PATH          a per-phase schedule instead (lines "2 GreedyLB",
///                                   "%100 TemperedLB fanout=4"; lb/schedule.hpp)
///   --tessera_lb_stats_file=PATH    append one JSON line per balanced phase (rank 0)
///   --tessera_lb_split_above=F      before the strategy, split elements heavier than F x the
///                                   average rank load (lb/reshape.hpp; dynamic collections whose
///                                   type has split())
///   --tessera_lb_merge_below=F      ... and merge co-located ones lighter than F x the average
///                                   element load (types with merge_into() and merge())
///   --tessera_help_lb               print every strategy with its keys, defaults and meaning
///
/// Everything is parsed once, while the flags are parsed, before any phase runs, into the typed
/// values the LB manager reads (automatic(), every(), load_model(), strategy(), schedule()): an
/// unknown strategy, key or value, a schedule line that does not parse (with its line number),
/// --tessera_lb_args without a strategy, or both a name and a file raise tessera::Error naming the
/// flag, which the runtime turns into one message and a non-zero exit on every rank. The text
/// members are the spellings (set them in code through ContextOptions); changing one after the
/// parse changes nothing.
#include <tessera/lb/load_model.hpp>
#include <tessera/lb/registry.hpp>
#include <tessera/lb/reshape.hpp>
#include <tessera/lb/schedule.hpp>
#include <tessera/runtime/flags.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace tessera::lb {

struct LbFlags : FlagGroup {
  std::string name;
  std::string interval = "1";  ///< "N" (N >= 1) or "auto"
  std::string args;
  std::string model = "persistence";  ///< persistence, median:N or linear:N
  std::string file;
  std::string stats_file;
  double split_above = 0.0;  ///< 0: off
  double merge_below = 0.0;  ///< 0: off
  bool help_lb = false;

  void describe(FlagTable& table) override;
  /// Throws tessera::Error for a split or merge factor that is negative or not finite.
  void validate() const override;
  /// Parses the interval, the load model, the strategy with its arguments and the schedule file,
  /// once each (FlagGroup::parses() counts them). Throws tessera::Error naming the flag.
  void resolve() override;

  /// True for --tessera_lb_interval=auto.
  bool automatic() const { return automatic_; }
  /// N of --tessera_lb_interval=N (1 when automatic).
  std::int64_t every() const { return every_; }
  /// The load model of --tessera_lb_model.
  const lb::LoadModelSpec& load_model() const { return load_model_; }
  /// --tessera_lb_name with --tessera_lb_args, parsed; nullopt without a name.
  const std::optional<lb::StrategySpec>& strategy() const { return strategy_; }
  /// The schedule of --tessera_lb_file, each line parsed against the built-in strategies; nullopt
  /// when no file was given.
  const std::optional<lb::Schedule>& schedule() const { return schedule_; }
  /// --tessera_lb_split_above and --tessera_lb_merge_below.
  lb::ReshapeOptions reshape() const { return {split_above, merge_below}; }

 private:
  bool automatic_ = false;
  std::int64_t every_ = 1;
  lb::LoadModelSpec load_model_;
  std::optional<lb::StrategySpec> strategy_;
  std::optional<lb::Schedule> schedule_;
};

}  // namespace tessera::lb
