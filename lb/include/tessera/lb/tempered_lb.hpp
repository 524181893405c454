#pragma once
// TemperedLB and GrapevineLB: fully distributed, gossip-based load balancers.
//
// Source: Lifflander, Slattengren, Pébay, Miller, Rizzi, Bettencourt, "Optimizing Distributed Load
// Balancing for Workloads with Time-Varying Imbalance" (IEEE Cluster 2021),
// which extends Menon and Kalé's GrapevineLB (SC'13).
//
// One balancing step (Algorithm 3) runs `trials` independent trials of `iters` iterations; each
// iteration is
//   1. inform (Algorithm 1): underloaded ranks (load < average) gossip their load to `fanout`
//      random ranks; receivers accumulate the underloaded ranks they hear of and forward the whole
//      set to `fanout` ranks they do not know to be underloaded, for `rounds` rounds;
//   2. transfer (Algorithm 2): every rank above threshold x average walks its objects in the
//      chosen order, picks a known underloaded rank by sampling a CMF built from the known loads,
//      and proposes the object to it if the criterion holds, until it is no longer overloaded;
//   3. the proposed objects travel (as descriptors) to their new ranks and I = max/avg - 1 of the
//      proposed placement is computed by a reduction.
// The placement with the lowest I over all trials and iterations is the plan, unless no proposal
// beats the starting placement: then nothing moves (never worse than the start).
//
// The paper's changes to GrapevineLB, each a key so that any combination can be run:
//   iters, trials             Algorithm 3 (iterative refinement, keep the best);
//   patience                  (not in seed 003) N > 0: a trial ends once N iterations in a row
//                             lower neither its imbalance nor the number of ranks at its maximum,
//                             and another trial starts only after a trial
//                             that ended so (a trial still improving at its last iteration is not
//                             in the local minimum trials exist to escape). With the default 1,
//                             against 2 trials x 8 iterations run out, the median final I of 3
//                             seeds is the same on every LBAF data set in tests/data/lbaf and two
//                             of three synthetic workloads (seed 003's shape: 0.149, not 0.145),
//                             with 0.13-1.0x the messages (docs/benchmarks.md); 0 runs them all;
//   criterion=relaxed         Lemma 1: accept when load(o) < l_p - l_x (grapevine: l_x + load(o) < l_ave);
//   cmf=normbymax             rebuild the CMF after every accepted transfer, normalised by
//                             max(l_ave, max known load) (original: built once from l_ave);
//   ordering                  Algorithms 4 (load_intensive), 5 (fewest_migrations), 6 (lightweight),
//                             plus element_id and arbitrary (storage order);
//   knowledge                 log: rounds = ceil(log P / log fanout); complete: every rank learns
//                             every underloaded rank (one reduction, no gossip); user: `rounds`.
//   transfer                  distributed (every overloaded rank decides at once, from the
//                             placement at the start of the iteration) or sequential (below).
//   admit                     (transfer=distributed) receiver: a rank that receives proposals
//                             checks the criterion again against its own load as it grows,
//                             most loaded sender first, and sends back what fails; all: it takes
//                             every proposal (GrapevineLB, and TemperedLB as published).
//   swaps                     (load only, transfer=distributed; not in seed 003) N > 0: a rank
//                             whose transfer accepted nothing offers up to N of its objects too
//                             heavy to move alone to its least loaded known peer, which may take
//                             one and give back lighter objects so that the larger of the two
//                             loads falls by at least 5 % of the load moved (Charm++'s
//                             RefineSwapLB, CCM-LB's cluster swaps without memory;
//                             load_swap.cpp). 0 (the default): off, as published; swaps=4 halves
//                             the imbalance left on replayed PIC phases but, balancing every
//                             phase on wall-clock loads, its extra migrations cost more than it
//                             saved (load_swap.cpp has the figures).
//
// Why admit=receiver (not in seed 003): in the distributed transfer every overloaded rank decides
// from gossiped loads at once, so several pick the same underloaded rank and overshoot it; the
// next iteration moves the excess back, and the best placement of a trial stays far from the
// sequential transfer's (LBAF's challenging_toy_fewer_tasks: I 0.07-0.31 against 0.01-0.30 with 8
// iterations). Checking at the receiver is what the sequential transfer gets by reading current
// loads, done with one more message round per iteration, and it keeps every rank deciding at once.
//
// transfer=sequential is the transfer stage of LBAF, the simulator that produced seed 003's section V
// tables (its 2021 Runtime): ranks take turns in rank order and each accepted transfer takes effect
// at once, so a rank that received objects earlier in the iteration may pass them on in its own
// turn; the criterion reads the destination's current load, while the CMF reads what the sender
// believes (gossiped loads plus its own transfers; a destination now heavier than the sender is
// forgotten); and after every accepted transfer the sender starts again from its first remaining
// object, so one object can be rejected many times (the paper's 154931 rejections of 10^4 objects).
// A token carries the turn from rank r to r + 1 with every rank's load change so far (P doubles)
// and the objects bound for ranks whose turn is still to come: P messages in sequence per
// iteration, O(P^2) bytes. It reproduces the tables (tests/perf/tempered/README.md); it is a
// fidelity mode for lbsim and small jobs, not a balancer for large live runs.
// GrapevineLB is this strategy with criterion=grapevine, cmf=original, ordering=arbitrary and one
// trial of one iteration.
//
// Determinism. Every random choice comes from a generator seeded by (seed, trial, iteration,
// stage, rank, round), never shared between ranks. With deterministic=true the gossip runs in
// synchronous rounds (a round's messages are all delivered and merged, as a set union, before
// anyone forwards), peers are sampled in rank order and proposed objects are appended in sender
// order, so the plan is a pure function of (input, keys, seed): the same on a live job, where
// arrival order varies, as in lbsim (tests/lb/tempered checks it against a backend that delivers
// in random order). Only the number of rounds costs: about P x fanout messages per round, each
// carrying up to all underloaded ranks (0.56 s per iteration in lbsim at P = 4096, k = 10). With deterministic=false
// the gossip is asynchronous: a rank merges and forwards as messages arrive (at most once per
// round number, which bounds the traffic at P x fanout messages per round, as in Charm++'s
// DistributedLB and LBAF) and the inform stage ends when the backend is quiet (termination
// detection in a live run); the plan then depends on delivery order.
//
// The work model (work_model.hpp; vt's TemperedWMin, LBAF's AffineCombination, CCM-LB). When beta,
// gamma or delta is non-zero, a rank_alpha differs from alpha, or a memory limit applies, every
// rank's load above is replaced by its exact work W (its objects' edges travel with them, after
// one directory exchange that brings each recorded edge to the ranks holding its ends): the
// average, the gossip, the CMF, the threshold and I are of work, and the ordering reads each
// object's marginal work (W minus the work without it). The relaxed criterion becomes
// max(W_x', W_p') < W_p: the sender knows W_p' exactly and bounds W_x' from above by
// W_x + alpha o_load + (beta + gamma) max(o's bytes out, in) + delta (o's block bytes when x is not
// its home; beta + gamma because the sender cannot tell which of o's bytes stay within x's node);
// the receiver then computes W_x' exactly and, with admit=receiver, returns what fails. A memory
// limit is checked by the sender against gossiped headroom (an upper bound of what o adds) and
// by the receiver exactly, whatever `admit` says; refusals are counted apart (rejected_memory).
// Under a memory limit or delta, the inform stage also carries each underloaded rank's shared
// blocks (up to 16, with their bytes and their clusters' loads) and its largest working bytes:
// an object whose block a peer already holds goes to the least loaded such peer before any CMF
// draw, and adds neither the block's bytes nor homing there; objects of one block follow the
// first to the same peer; and when a move is refused for memory, the sender may propose a
// cluster swap (CCM-LB, Pebay et al. 2023), one per peer and several per iteration: it sends the
// object alone or its whole cluster (which frees the block, so that another can come back), and
// the peer admits that unit whole in exchange for one of its own clusters, chosen against both
// ranks' work and memory; the sender splits the memory it can take back among its swaps and caps
// the work each may bring back, so no outcome of the receivers' choices breaks its limit
// (cluster_swap.cpp). Where we differ: vt's TemperedWMin sums per-object work estimates, and
// LBAF's CCM-LB transfers sequentially with every rank's clusters in view and swaps
// subclusters; here work is the rank's, exact, decisions are distributed, and what a sender
// knows of a peer's blocks is what was gossiped. transfer=sequential with the model on is
// refused (it balances load only).
//
// Loads are seconds. Errors: ArgumentError for invalid options (fanout < 1, rounds < 1, ...).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/lb/args.hpp"
#include "tessera/lb/strategy.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb {

struct TemperedOptions {
  enum class Criterion { grapevine, relaxed };
  enum class Cmf { original, normbymax };
  enum class Ordering { arbitrary, element_id, load_intensive, fewest_migrations, lightweight };
  enum class Knowledge { log, complete, user };
  enum class Transfer { distributed, sequential };

  int fanout = 6;           // f: messages a rank sends per gossip round, >= 1
  // Underloaded ranks a gossip message carries and a forwarding rank keeps (0: all it hears of;
  // auto_known: known_cap_for(P)). An overloaded rank keeps all it hears either way.
  static constexpr int auto_known = -1;
  int max_known = auto_known;
  int rounds = 0;           // k when knowledge=user (>= 1); must stay 0 otherwise
  int iters = 8;            // iterations per trial, >= 1 (the paper's EMPIRE runs use 8)
  int trials = 2;           // independent trials from the starting placement, >= 1 (2: see admit)
  int patience = 1;         // a trial ends after this many iterations in a row lower nothing (0: never; see above)
  double threshold = 1.0;   // h: a rank transfers while its load > h x average, h >= 1
  Criterion criterion = Criterion::relaxed;
  Cmf cmf = Cmf::normbymax;
  Ordering ordering = Ordering::fewest_migrations;
  Knowledge knowledge = Knowledge::log;
  Transfer transfer = Transfer::distributed;
  std::uint64_t seed = 0;
  bool deterministic = false;
  enum class Admit { receiver, all };
  Admit admit = Admit::receiver;
  int swaps = 0;   // units a rank that moved nothing may offer in a swap (0: no swaps)
  // transfer=distributed: a sender keeps its heaviest object when that object alone is above the
  // average (see keep_heaviest in order_objects' header); not in seed 003.
  bool keep_heaviest = true;
  WorkModel work;  // keys alpha, beta, gamma, delta, memory_limit (work_model.hpp)

  // GrapevineLB's choices (seed 003, section IV-B) with the given gossip settings.
  static TemperedOptions grapevine(int fanout, int rounds, Knowledge knowledge, double threshold,
                                   std::uint64_t seed, bool deterministic,
                                   Transfer transfer = Transfer::distributed);

  // Gossip rounds for P ranks: ceil(log P / log fanout) for knowledge=log (at least 1), `rounds`
  // for user, 0 for complete.
  int rounds_for(std::int64_t ranks) const;
  // The cap max_known means on `ranks` ranks: auto is 0 (all, as seed 003 gossips) up to 4,096
  // ranks, the largest scale the seeds simulate, and 32 above, where keeping all costs P^2 bits
  // and up to P^2 entries over all ranks (at 131,072 ranks, gigabytes).
  int known_cap_for(std::int64_t ranks) const;

  // Throws ArgumentError naming `strategy` and the first invalid field.
  void validate(std::string_view strategy = "TemperedLB") const;
};

// One iteration's outcome, as in the tables of seed 003 section V.
struct TemperedIteration {
  int trial = 0;                 // 1-based
  int iteration = 0;             // 1-based within the trial
  std::int64_t transfers = 0;    // transfers accepted by the criterion, all ranks
  std::int64_t rejected = 0;     // transfers the criterion rejected, all ranks
  std::int64_t rejected_memory = 0;  // transfers refused because a memory limit would break
  double imbalance = 0.0;        // I of the proposed placement after this iteration (of work
                                 // when the work model is on)
  std::int64_t swaps = 0;        // swaps accepted (load only; their objects count as transfers)
};

struct TemperedReport {
  double initial_imbalance = 0.0;
  double best_imbalance = 0.0;  // of the plan returned (initial_imbalance when nothing moved)
  int best_trial = 0;           // 0 when the starting placement was kept
  int best_iteration = 0;
  int rounds = 0;               // gossip rounds used per inform stage
  // Balancing by load, or by work that is alpha x load (a memory limit allowed), the trials stop
  // once an iteration reaches the lower bound
  // max(average, largest object) / average - 1, which no placement can beat: the later iterations
  // and trials could only tie it, and ties keep the earlier plan.
  double lower_bound = 0.0;      // of load; 0 when work is not proportional to load (no bound is used)
  bool stopped_at_bound = false;
  std::vector<TemperedIteration> iterations;  // trial-major order
};

class TemperedLB final : public Strategy {
 public:
  TemperedLB();  // TemperedOptions{} defaults
  // `name` is what name() returns ("TemperedLB" or "GrapevineLB"). Throws ArgumentError.
  explicit TemperedLB(TemperedOptions options, std::string name = "TemperedLB");

  static std::vector<KeySpec> keys();
  static TemperedLB from_args(const Args& args);
  // GrapevineLB's keys: fanout, rounds, knowledge, threshold, seed, deterministic, transfer.
  static std::vector<KeySpec> grapevine_keys();
  static TemperedLB grapevine_from_args(const Args& args);

  std::string_view name() const override { return name_; }
  const TemperedOptions& options() const { return options_; }
  const WorkModel* work_model() const override { return &options_.work; }

  // Collective. See Strategy::run. Fills report().
  Plan run(comm::Backend& backend, std::span<const StrategyInput> hosted) override;

  // The per-iteration report of the last run() (identical on every process).
  const TemperedReport& report() const { return report_; }

 private:
  TemperedOptions options_;
  std::string name_;
  TemperedReport report_;
};

}  // namespace tessera::lb
