#pragma once
/// tessera-soak's run: the phase loop, its totals, and what a checkpoint stores.
///
/// Each phase (all ranks):
///   1. a collective epoch in which the rank-side code sends --spmd_messages messages (from 8
///      SPMD sources spread over the ranks) and rank (phase % P) opens a nested rooted epoch that
///      broadcasts `tick` to the patches;
///   2. rank 0 broadcasts `tick` to the cells; each element then sends --fanout messages, and
///      every handler passes a message on while its ttl lasts, to random elements of either
///      collection, with random sizes (0 B to 256 KiB); receivers move themselves now and then, so
///      messages chase migrating elements;
///      with --dynamic, a third collection (sparks, as many as cells) is dynamic: at the start of
///      each phase some ranks insert the sparks that live in this phase and destroy those that
///      lived in the last one only (about half live in each phase, drawn from the seed), and
///      messages go to live sparks too, racing their insertion;
///   3. a task collection with stealing runs a binary tree of --tasks levels;
///   4. a balancer is requested (RandomLB, TemperedLB, GreedyLB in turn, unless --tessera_lb_name
///      or --tessera_lb_file choose) and phase_end() waits for quiescence and balances;
///   5. one reduction over both collections and every rank adds the ledgers' phase tallies, and
///      check() gives the phase's verdict; every K-th phase a checkpoint follows.
#include "tessera/soak/ledger.hpp"
#include "tessera/soak/driver/options.hpp"

#include <cstdint>

#include <tessera/runtime/error.hpp>

namespace tessera {
class Context;
}

namespace tessera::soak {

/// Totals over the run (restarts included: a checkpoint carries them). Trivially copyable.
struct Totals {
  std::uint64_t messages = 0;    ///< messages sent
  std::uint64_t delivered = 0;   ///< distinct messages delivered
  std::uint64_t duplicated = 0;
  std::uint64_t lost = 0;
  std::uint64_t corrupted = 0;
  std::uint64_t bytes = 0;       ///< payload bytes delivered
  std::uint64_t migrations = 0;  ///< element arrivals on another rank (balancers and self-moves)
  std::uint64_t phases = 0;
  std::uint64_t balancings = 0;  ///< phases after which a balancer ran
  std::uint64_t checkpoints = 0;
  std::uint64_t kills = 0;       ///< counted by the harness (a killed run cannot report itself)
  std::uint64_t restarts = 0;
  std::uint64_t hangs = 0;       ///< a hang ends the job (--tessera_hang_timeout): 0 in any report
  std::uint64_t broadcasts = 0;  ///< broadcast deliveries to elements
  std::uint64_t tasks = 0;       ///< stolen-task collection tasks run
  std::uint64_t steals = 0;      ///< successful steals between ranks
  std::uint64_t failed_phases = 0;  ///< phases whose verdict was not clean
  std::uint64_t inserted = 0;    ///< sparks inserted (--dynamic)
  std::uint64_t destroyed = 0;   ///< sparks destroyed (--dynamic)
};

/// What a checkpoint stores beside the elements: the workload's parameters (a restart must run
/// the same workload), the next phase, and the totals so far. Trivially copyable.
struct State {
  std::uint64_t seed = 0;
  std::int64_t elements = 0, fanout = 0, ttl = 0, spmd_messages = 0, tasks = 0, migrate_one_in = 0, dynamic = 0;
  std::int64_t next_phase = 0;
  Totals totals;
};

/// The outcome of a run on every rank.
struct Result {
  Totals totals;
  std::uint64_t fingerprint = 0;  ///< every element's ledger state, XOR-combined: rank-count free
  double seconds = 0;             ///< wall time of this run's phases (rank 0's view, max over ranks)
  int ranks = 0;                  ///< at the start
  int final_ranks = 0;            ///< at the end (fewer after --shrink_every, more after --expand_every)
  int shrinks = 0;
  int expands = 0;                ///< expands that happened (one refused for want of slots does not count)
  bool left = false;              ///< this rank left at a shrink: it reports nothing
  bool joined = false;            ///< this process joined at an expand
  std::string restarted_from;     ///< the checkpoint restarted from, or empty
};

/// Collective: runs the soak. Throws RunError when a restart's checkpoint does not match the
/// options. Exactly-once violations do not throw: they are in the totals.
Result run_soak(const Options& options, Context& ctx);

}  // namespace tessera::soak
