#pragma once
// One rank's share of a TemperedLB run: its objects in the starting, current and best proposal,
// what it knows about underloaded ranks, and the message handlers of the inform stage
// (Algorithm 1), of proposed transfers and of the final plan. The transfer stage and the
// admission of arrivals are written once over what is evened out (measure.hpp): load, or the
// work model (work_measure.hpp).

#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "knowledge.hpp"
#include "messages.hpp"
#include "tessera/lb/comm.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lb/tempered_transfer.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb::tempered {

// What every rank agrees on during one iteration; set between collective steps only.
struct Shared {
  const TemperedOptions* options = nullptr;
  Rank size = 0;
  Rank staying = 0;        // ranks that stay (StrategyInput::staying): the average is over these
  int rounds = 0;          // k
  double average = 0.0;    // l_ave, seconds
  std::int64_t underloaded = 0;  // ranks below l_ave this iteration: a rank knowing them all
                                 // has nothing left to learn and skips merging
  std::uint64_t trial = 0;
  std::uint64_t iteration = 0;
  // Work model (work_measure.hpp): modeled when work is not load or a memory limit applies; then
  // `average` is of work and recomputed every iteration. limited: some rank has a memory limit.
  bool modeled = false;
  bool limited = false;
  // Modeled with a memory limit or delta != 0: knowledge carries each peer's shared blocks.
  bool blocks = false;
  // The backend's node map when it groups ranks (NodeMap::grouped), else nullptr: every off-rank
  // byte is then inter-node (work_model.hpp).
  const NodeMap* nodes = nullptr;
  comm::Handler<DirectoryMessage> directory;
  comm::Handler<LocationMessage> locations;
  comm::Handler<EdgeDelivery> edges;
  comm::Handler<GossipView> gossip;
  comm::Handler<TransferMessage> proposal;
  comm::Handler<TransferMessage> returned;
  comm::Handler<PlanMessage> plan;
  comm::Handler<LoadReport> underload;
  comm::Handler<TurnToken> turn;
};

// Stages named in the random stream coordinates, so gossip and transfer draws never coincide.
enum class Stage : std::uint64_t { inform = 1, forward = 2, transfer = 3, knowledge = 4 };

// One iteration's transfer decisions on a rank; the driver sums them over ranks into its report
// (TemperedIteration).
struct Counts {
  std::int64_t transfers = 0;        // objects moved, gross: a receiver's return undoes its sender's count
  std::int64_t rejected = 0;         // refused by the criterion, at the sender or at the receiver
  std::int64_t rejected_memory = 0;  // refused for the receiver's memory
  std::int64_t swaps = 0;            // load-only swap moves taken (load_swap.cpp)
};

class TemperedRank {
 public:
  TemperedRank(const Shared& shared, const StrategyInput& input);

  double load() const;  // of the current proposal, seconds
  double largest_object() const;  // the largest object load held, seconds (0 with none)
  // What the balancer evens out: load, or work when the model is on (seconds).
  double value() const { return shared_->modeled ? modeled_value() : load(); }
  // A leaving rank (StrategyInput::leaving) is never underloaded, so nothing is sent to it.
  bool underloaded() const { return !input_->leaving && value() < shared_->average; }
  // Whether this rank's input needs the work model (load_only_here false, or a memory limit).
  bool needs_model() const;
  // Whether this rank's work is alpha x load with the shared alpha (no beta, gamma, delta, rank
  // alpha; a memory limit allowed): the load's lower bound on imbalance then holds for work.
  bool work_is_proportional() const;
  bool has_limit() const { return std::isfinite(limit_); }

  // --- work model: the edge exchange (edge_exchange.cpp) ---
  // With beta != 0: send recorded edges to the directory ranks of their ends, then the directory
  // ranks pass them to the holders, which attach them to their objects.
  void send_to_directory(comm::Communicator& ctx);
  void on_directory(comm::Communicator& ctx, const DirectoryMessage& message);
  // With a grouping node map, between the two: each directory rank tells the directory rank of
  // every edge's other end where its own end is held.
  void share_locations(comm::Communicator& ctx);
  void on_locations(comm::Communicator& ctx, const LocationMessage& message);
  void forward_edges(comm::Communicator& ctx);
  void on_edges(comm::Communicator& ctx, const EdgeDelivery& message);
  void attach_edges();

  // --- inform (Algorithm 1, inform.cpp) ---
  // Forgets what the previous iteration learned.
  void reset_knowledge();
  // INFORM: an underloaded rank records itself and sends its load to `fanout` random ranks.
  void inform(comm::Communicator& ctx);
  // Synchronous rounds: forwards once if a message of round `round` arrived (and round < k).
  void forward_if_reached(comm::Communicator& ctx, int round);
  // Complete knowledge, without gossip: underloaded ranks report to rank 0, which broadcasts
  // every underloaded load indexed by rank (+inf where not underloaded); only ranks that will
  // transfer keep a copy.
  void report_underload(comm::Communicator& ctx);
  void on_underload(comm::Communicator& ctx, const LoadReport& report);
  std::vector<double> take_underloads() { return std::move(inform_.underloads); }
  std::vector<PeerBlocks> take_underload_blocks() { return std::move(inform_.underload_blocks); }
  void learn_all(const std::vector<double>& underloads, const std::vector<PeerBlocks>& blocks);
  // A message of round r is merged once this rank has run its own step r - 1 (inform for r = 1,
  // forward_if_reached(r - 1) after): in deterministic mode a faster rank's step can reach this
  // rank before this rank ran the same step, and merging early would change what this rank
  // forwards, and whether it forwards at all, against lbsim's sequential replay. Such a message
  // is kept (a copy of its bytes) until the step.
  void on_gossip(comm::Communicator& ctx, const GossipView& message);

  // --- transfer (Algorithm 2: propose.cpp, admit.cpp) ---
  // Runs TRANSFER on the current proposal, in load or in work, and sends the accepted objects to
  // their new ranks; counts() holds this iteration's decisions.
  void propose(comm::Communicator& ctx);
  const Counts& counts() const { return counts_; }
  void on_proposal(comm::Communicator& ctx, const TransferMessage& message);
  // transfer=sequential: takes the objects the token carries for this rank, runs
  // transfer_in_turn against current loads (gossiped load + change), records its moves in the
  // token and passes it to the next rank. Rank 0 starts with an empty token.
  void take_turn(comm::Communicator& ctx, TurnToken token);
  void on_turn(comm::Communicator& ctx, const TurnToken& token) { take_turn(ctx, token); }
  // Appends the objects proposed to this rank, in sender order (arrival order varies on a live
  // job, storage order must not: it is the "arbitrary" ordering of the next iteration). With
  // admit=receiver (distributed transfer), or with the work model, it admits them most loaded
  // sender first while the criterion and its memory hold, and sends the rest back.
  void accept_arrivals(comm::Communicator& ctx);
  void on_returned(comm::Communicator& ctx, const TransferMessage& message);
  // Takes back the objects receivers returned, in receiver order.
  void take_returns();

  // --- Algorithm 3 bookkeeping ---
  void restart_trial() { held_ = start_; }
  void remember_best() { best_ = held_; }
  // Tells the origin of every object that ends up elsewhere in the best proposal.
  void send_plan(comm::Communicator& ctx);
  void on_plan(comm::Communicator& ctx, const PlanMessage& message);

  const std::vector<Migration>& plan() const { return plan_; }

 private:
  // The work model's sender and receiver (work_measure.hpp); load's are in measure.hpp.
  class WorkSender;
  class WorkReceiver;

  // The edge exchange's state, emptied as its edges reach their objects.
  struct EdgeDirectory {
    std::unordered_map<ObjectId, Rank, ObjectIdHash> holders;       // directory rank: holder by object
    std::vector<std::pair<ObjectId, LbEdge>> edges;                  // directory rank: edges by end
    std::unordered_map<ObjectId, Rank, ObjectIdHash> peer_holders;  // directory rank: holders of other ends
    std::vector<LbEdge> delivered;                                   // holder: edges of its objects
    std::unordered_map<ObjectId, Rank, ObjectIdHash> located;        // holder: ranks of its objects' peers
  };

  // Where this rank is in an inform stage; reset_knowledge starts it again.
  struct InformState {
    bool transferring = false;  // reads its knowledge in the transfer stage
    int reached_round = 0;      // highest gossip round received (synchronous mode)
    int stepped = -1;           // synchronous mode: the last step run this stage (0: inform)
    std::vector<std::vector<std::byte>> early;  // synchronous mode: messages ahead of stepped + 1
    std::vector<bool> forwarded;                // per round: already forwarded (asynchronous mode)
    int forwards_left = 0;                      // rounds 1..k-1 not yet forwarded (asynchronous mode)
    std::vector<double> underloads;             // rank 0 with complete knowledge: load by rank
    std::vector<PeerBlocks> underload_blocks;   // and, when tracked, blocks by rank
  };

  // An arrived object (arrivals_[message].second.objects[index]) and its sender's load, or work
  // with the model on, when it decided to send it (seconds).
  struct Candidate {
    double sender_load;
    Rank source;
    std::size_t message;
    std::size_t index;
  };

  Random stream(Stage stage, std::uint64_t round) const;
  // The current proposal's objects, as the pure transfer functions (tempered_transfer.hpp) take them.
  std::vector<LbObject> held_objects() const;
  std::int32_t node() const { return shared_->nodes ? shared_->nodes->node_of(rank_) : -1; }

  // Inform stage (inform.cpp).
  // Whether what this rank knows may still be read after a message of `round` is handled: by
  // its own transfer stage, or by a gossip forward still to come. A rank that neither transfers
  // nor forwards again need not merge: at P = 16,384 the last round carries most of a stage's
  // entries, mostly to such ranks, and their lists were most of the inform stage's memory.
  bool knowledge_read_later(int round) const;
  void send_gossip(comm::Communicator& ctx, int round, Random& random);
  // Merges a message (and, without deterministic rounds, forwards it).
  void absorb(comm::Communicator& ctx, const GossipView& message);
  // Deterministic rounds: this rank ran its step `round` (0: inform); merges what was kept for it.
  void end_step(comm::Communicator& ctx, int round);

  // Transfer stage (propose.cpp, admit.cpp).
  // Known underloaded ranks other than this one, in rank order (the order knowledge arrived in
  // varies between backends, the CMF must not); `at`, when given, gets their indices in known_.
  std::vector<Peer> known_peers(std::vector<std::size_t>* at = nullptr);
  // TRANSFER with `sender` against `peers`, then the proposals it decided are sent.
  template <class Sender>
  void send_proposals(comm::Communicator& ctx, Sender& sender, std::vector<Peer>& peers);
  // Removes the accepted objects from held_ and returns them, in decision order.
  std::vector<Held> take_accepted(const std::vector<Proposal>& accepted);
  // Every arrived object in the order receivers admit them: most loaded sender first, ties by
  // rank, then by the sender's own order.
  std::vector<Candidate> candidates() const;
  // The admission of the plain proposals by `receiver`; what it refuses goes to `back`.
  template <class Receiver>
  void admit_each(Receiver& receiver, std::map<Rank, TransferMessage>& back);

  // Work model (work_measure.cpp).
  // The work and memory of the current proposal.
  RankWork modeled() const;
  double headroom() const { return has_limit() ? limit_ - modeled().memory() : HUGE_VAL; }
  // What this rank tells senders about its blocks (Shared::blocks only).
  PeerBlocks own_blocks() const;

  // Load-only swaps (load_swap.cpp): a rank of load `own` whose transfer accepted nothing offers
  // candidate units to its least loaded peer; a receiver takes at most one unit per offer, after
  // the plain proposals, and adds what it gives back (and the units it leaves) to `back`.
  void offer_load_swap(comm::Communicator& ctx, double own, const std::vector<Peer>& peers);
  void admit_load_swaps(std::vector<std::pair<Rank, TransferMessage>>& offers, std::map<Rank, TransferMessage>& back);

  const Shared* shared_;
  Rank rank_;
  const StrategyInput* input_;
  double alpha_ = 1.0;
  double limit_ = HUGE_VAL;  // bytes
  // The proposals of Algorithm 3: where balancing started, the current one and the best so far.
  std::vector<Held> start_;
  std::vector<Held> held_;
  std::vector<Held> best_;
  // modeled().work() of the objects held when it was last computed, and their key: a sum of
  // 64-bit hashes of the ids, the same for the same set in any order (work depends on the set
  // alone once edges are attached). value() is read several times per iteration, and building
  // a RankWork is most of its cost.
  double modeled_value() const;
  std::uint64_t held_key() const;
  mutable std::uint64_t value_key_ = 0;
  mutable double value_ = 0.0;
  mutable bool value_known_ = false;
  EdgeDirectory directory_;
  Knowledge known_;
  InformState inform_;
  Counts counts_;
  std::vector<std::pair<Rank, TransferMessage>> arrivals_;  // proposals to this rank, by sender
  std::vector<std::pair<Rank, std::vector<Held>>> returns_;  // what receivers sent back, by receiver
  std::vector<Migration> plan_;
};

}  // namespace tessera::lb::tempered
