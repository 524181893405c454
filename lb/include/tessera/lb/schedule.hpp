#pragma once
// Per-phase LB schedules, the file format of vt's --vt_lb_file_name:
//
//   # comment
//   2 GreedyLB                 balance at phase 2 with GreedyLB
//   %100 HierLB branching=4    balance at every phase p with p % 100 == 0
//   auto TemperedLB            at any other phase, let the LB manager decide (its auto interval)
//
// An exact phase line wins over %N lines, and %N lines over an auto line; among lines of one kind
// the first in the file wins. Strategy
// names and arguments are validated against a Registry when the schedule is read, so a bad line
// stops the run before any phase balances.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/lb/args.hpp"
#include "tessera/lb/model.hpp"
#include "tessera/lb/registry.hpp"

namespace tessera::lb {

class Registry;

struct ScheduleEntry {
  PhaseId phase = 0;     // the phase, or N for an every-N-th entry
  bool every = false;    // %N
  bool automatic = false;  // auto: the LB manager decides at each phase whether to balance
  std::string strategy;
  std::string args;      // "key=value ..." as written
  StrategyFactory make;  // parsed against the registry given to parse/read; empty without one
  int line = 0;          // 1-based, for messages
};

class Schedule {
 public:
  // Throws ArgumentError "<origin>:<line>: ..." for a malformed line, an unknown strategy or a bad
  // argument (the latter two only when `registry` is given).
  static Schedule parse(std::string_view text, const std::string& origin, const Registry* registry = nullptr);
  // Reads and parses a file; throws ArgumentError naming the file if it cannot be read.
  static Schedule read(const std::filesystem::path& file, const Registry* registry = nullptr);

  // The entry that applies at `phase`, if any (an auto entry applies at every phase no other does).
  std::optional<ScheduleEntry> at(PhaseId phase) const;
  const std::vector<ScheduleEntry>& entries() const { return entries_; }

 private:
  std::vector<ScheduleEntry> entries_;
};

}  // namespace tessera::lb
