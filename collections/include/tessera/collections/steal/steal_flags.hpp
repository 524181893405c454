#pragma once
/// Runtime flags of task collections.
///
///   --tessera_workers=N          worker threads per rank, the rank's main thread included
///                                (default 1, at most 4096). With N > 1 the rank runs tasks on N
///                                threads that steal from each other (worker_team.hpp) while its
///                                main thread alone talks to other ranks.
///   --tessera_steal_policy=NAME  the victim policy between ranks: random, lifeline or
///                                success_only (steal_options.hpp; default: the program's choice)
///   --tessera_steal_args="k=v .." the policy's keys (w, l, n, threshold, capacity, retentive,
///                                seed, spin_us, sleep_us), validated at start-up like
///                                --tessera_lb_args
///
/// A bad policy or key stops every rank at start-up with one message naming it. options() gives
/// the StealOptions these flags describe; a program passes them to the task collections it
/// creates (their task functions must then be safe to call concurrently when workers > 1, e.g.
/// by keeping per-worker state indexed by Spawner::worker()).
#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/runtime/flags.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::collections::steal {

struct StealFlags : FlagGroup {
  std::int32_t workers = 1;
  std::optional<std::string> policy;  ///< --tessera_steal_policy, when given
  std::string args;                   ///< --tessera_steal_args, space-separated key=value

  void describe(FlagTable& table) override;
  /// Parses the policy and the keys once (FlagGroup::parses() counts them); throws tessera::Error
  /// naming the flag and the bad policy or key.
  void resolve() override;

  using FlagGroup::given;
  /// True when a policy or a key was given: the program asked for a distributed search.
  bool given() const { return policy.has_value() || !args.empty(); }
  /// The policy of --tessera_steal_policy, parsed; nullopt when not given.
  std::optional<Policy> parsed_policy() const { return parsed_policy_; }
  /// StealOptions with the policy (`fallback` when none was given), the keys and the workers, as
  /// parsed at start-up (a group set in code and never parsed is parsed on first use).
  StealOptions options(Policy fallback = Policy::lifeline) const;

 private:
  std::vector<std::string> arg_items() const;
  bool resolved_ = false;
  std::optional<Policy> parsed_policy_;
  StealOptions keys_;  // the defaults with --tessera_steal_args applied
};

}  // namespace tessera::collections::steal
