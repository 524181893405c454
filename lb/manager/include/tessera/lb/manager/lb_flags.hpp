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
///   --tessera_help_lb               print every strategy with its keys, defaults and meaning
///
/// Everything is checked while the flags are parsed, before any phase runs: an unknown strategy,
/// key or value, a schedule line that does not parse (with its line number), --tessera_lb_args
/// without a strategy, or both a name and a file raise tessera::Error naming the flag, which the
/// runtime turns into one message and a non-zero exit on every rank.
#include <tessera/lb/load_model.hpp>
#include <tessera/lb/registry.hpp>
#include <tessera/lb/schedule.hpp>
#include <tessera/runtime/flags.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace tessera::lb_manager {

struct LbFlags : FlagGroup {
  std::string name;
  std::string interval = "1";  ///< "N" (N >= 1) or "auto"; read through every() and automatic()
  std::string args;
  std::string model = "persistence";  ///< read through load_model()
  std::string file;
  std::string stats_file;
  bool help_lb = false;

  void describe(FlagTable& table) override;
  void validate() const override;

  /// True for --tessera_lb_interval=auto.
  bool automatic() const { return interval == "auto"; }
  /// N of --tessera_lb_interval=N (1 when automatic). Throws tessera::Error naming the flag and the
  /// accepted forms for anything else.
  std::int64_t every() const;

  /// The load model of --tessera_lb_model. Throws tessera::Error naming the flag and the forms.
  lb::LoadModelSpec load_model() const;

  /// The schedule of --tessera_lb_file, validated against the built-in strategies; nullopt when
  /// no file was given. Throws tessera::Error naming the file and line.
  std::optional<lb::Schedule> schedule() const;
};

}  // namespace tessera::lb_manager
