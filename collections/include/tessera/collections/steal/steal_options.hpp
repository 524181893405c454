#pragma once
/// How a task collection balances work between ranks: the victim policy and its keys.
///
/// Policies (`--policy=NAME` in the apps):
///  - `random`: a thief asks one random victim at a time; a victim with no shared tasks answers
///    "no" (a failed steal) and the thief asks another. The active-message protocol of
///    J. Lifflander, S. Krishnamoorthy, L. V. Kale, HPDC 2012 (seed 000), section 6.
///  - `lifeline`: w random steals, then one request on every outgoing edge of the cyclic
///    hypercube of radix l (LifelineGraph) that has none outstanding; the thief then goes quiet.
///    A victim with nothing to give records the lifeline thief and pushes loot to it later.
///    V. A. Saraswat et al., "Lifeline-based Global Load Balancing", PPoPP 2011 (seed 004).
///  - `success_only`: every rank publishes whether its queued tasks exceed `threshold`; a thief
///    asks only such victims, never one it is already waiting on; a victim queues its thieves
///    and serves each when it has shared tasks, never answering "no". SuccessOnlyWS of
///    Kumar et al. (seed 001), Algorithms 1 and 2.
///
/// Keys (`key=value`, each validated): w, l, n, threshold, capacity, retentive, seed, spin_us,
/// sleep_us.
///
/// Idling: a rank with nothing to run inside process() polls the network for `spin_us`
/// microseconds, then sleeps in naps growing from 10 us to `sleep_us`. Both are short on
/// purpose: with ranks sharing cores (with each other or with other jobs), a thief that spins
/// or yields for milliseconds takes the core from the rank whose work it waits for (one noisy
/// measurement on 2 ranks, T3: 0.94 of the ranks' time in tasks with 20/100 us, 0.83 with the
/// runtime's general-purpose 200 us spin and 2 ms of sched_yield); one that sleeps long leaves
/// loot unopened.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::collections::steal {

enum class Policy { random, lifeline, success_only };

/// `--tessera_workers`, defined once: the steal flags parse it with the runtime's flags, and the
/// programs that run without a runtime (the work-pool apps) parse it on their own command line
/// under the same name and range.
struct WorkersFlag {
  static constexpr std::string_view name = "--tessera_workers";
  static constexpr std::int32_t min = 1;
  static constexpr std::int32_t max = 4096;  // more threads than this on one rank is a typing error
};

/// "random", "lifeline" or "success_only".
std::string_view to_string(Policy policy);

/// Throws tessera::Error naming `text` and the accepted names.
Policy parse_policy(std::string_view text);

struct StealOptions {
  Policy policy = Policy::random;
  /// lifeline: random steals before turning to lifelines (seed 004's w), >= 0.
  std::int32_t w = 1;
  /// lifeline: radix of the cyclic hypercube (seed 004's h), >= 2.
  std::int32_t l = 2;
  /// Tasks a rank runs between two looks at the network (seed 004's nu), >= 1.
  std::int32_t n = 256;
  /// success_only: a victim is eligible when its queued tasks exceed this, >= 0.
  std::int64_t threshold = 1;
  /// Tasks one rank's split deque holds (tasks being copied to thieves included), >= 2.
  std::int64_t capacity = std::int64_t{1} << 16;
  /// Retentive stealing (seed 000, section 6): restore() re-seeds each rank with exactly the
  /// seeded tasks it executed in the last process(), stolen ones included.
  bool retentive = false;
  /// Seed of the victim choices (each rank mixes in its rank).
  std::uint64_t seed = 0x5eed;
  /// Microseconds an idle rank polls before it starts to nap.
  std::int32_t spin_us = 20;
  /// Longest nap of an idle rank, in microseconds, >= 1.
  std::int32_t sleep_us = 100;
  /// Worker threads per rank, the main thread included, >= 1 (`--tessera_workers`,
  /// steal_flags.hpp). Above 1 the task function is called from that many threads at once.
  std::int32_t workers = 1;
};

/// The keys parse_steal_keys accepts, with their meaning, for --help texts.
std::string steal_keys_help();

/// Applies `key=value` items to `options`. Throws tessera::Error naming the item and what was
/// expected for an unknown key, a missing '=', a non-number or a value out of range.
void parse_steal_keys(StealOptions& options, const std::vector<std::string>& items);

}  // namespace tessera::collections::steal
