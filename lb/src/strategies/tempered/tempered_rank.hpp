#pragma once
// One rank's share of a TemperedLB run: its objects in the starting, current and best proposal,
// what it knows about underloaded ranks, and the message handlers of the inform stage
// (Algorithm 1), of proposed transfers and of the final plan.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tessera/lb/comm.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lb/tempered_transfer.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb::tempered {

// An object in a proposal, with the rank it was on before balancing (where the plan must be told,
// and the home of its shared block) and, when the work model counts bytes, its edges.
struct Held {
  LbObject object;
  Rank origin = no_rank;
  std::vector<HalfEdge> edges;
  template <class A>
  void serialize(A& ar) {
    ar(object, origin, edges);
  }
};

// What a sender needs to know of an underloaded rank's memory beyond its headroom, when a memory
// limit or the delta (homing) term is in force: the largest working bytes there, and the shared
// blocks it holds, as flat (shared_id, home) pairs, the largest first and at most max_blocks of
// them. An object whose block is already on the peer adds neither the block's bytes nor homing
// there, so without this list the sender must count every block as new (CCM-LB's sequential
// transfer reads the peer's blocks directly; our distributed sender only knows what was gossiped).
// With each block come its bytes and its cluster's load there (the objects sharing it), which is
// what a sender needs to judge a cluster swap (cluster_swap.cpp) before proposing one.
struct PeerBlocks {
  static constexpr std::size_t max_blocks = 16;
  double working = 0.0;
  std::vector<std::int64_t> blocks;  // (shared_id, home) pairs
  std::vector<double> bytes;         // per block
  std::vector<double> loads;         // per block: its cluster's load, seconds
  std::size_t size() const { return bytes.size(); }
  bool holds(std::int64_t shared_id, Rank home) const {
    for (std::size_t i = 0; i + 1 < blocks.size(); i += 2) {
      if (blocks[i] == shared_id && blocks[i + 1] == home) return true;
    }
    return false;
  }
  template <class A>
  void serialize(A& ar) {
    ar(working, blocks, bytes, loads);
  }
};

// GOSSIPHANDLER's arguments: the sender's known underloaded ranks and their loads (aligned), and
// with a memory limit the bytes each may still take (aligned; empty without limits). When shared
// blocks are tracked (Shared::blocks) a tail follows: each rank's largest working bytes, its
// count of blocks, then flat over all ranks the (shared_id, home) pairs, the blocks' bytes and
// their clusters' loads; without it the encoding ends after headrooms.
struct GossipMessage {
  std::int32_t round = 0;
  std::vector<Rank> ranks;
  std::vector<double> loads;
  std::vector<double> headrooms;
  std::vector<double> working;
  std::vector<std::uint32_t> block_counts;
  std::vector<std::int64_t> blocks;
  std::vector<double> block_bytes;
  std::vector<double> block_loads;
  template <class A>
  void serialize(A& ar) {
    ar(round, ranks, loads, headrooms, working, block_counts, blocks, block_bytes, block_loads);
  }
  // The encoding of a message with these fields, written from the sender's own lists in one
  // allocation of the exact size: no copy of the lists into a message, and no spare capacity
  // held by each of the P x fanout payloads in flight. `peers` (aligned with ranks) only when
  // blocks are tracked.
  static comm::Payload encode(std::int32_t round, const std::vector<Rank>& ranks, const std::vector<double>& loads,
                              const std::vector<double>& headrooms, const std::vector<PeerBlocks>* peers = nullptr) {
    comm::Payload out;
    out.reserve(sizeof round + 3 * sizeof(std::uint64_t) + ranks.size() * sizeof(Rank) +
                (loads.size() + headrooms.size()) * sizeof(double));
    comm::ByteWriter writer(out);
    writer(round, ranks, loads, headrooms);  // as serialize() does
    if (peers != nullptr) {
      std::vector<double> working;
      std::vector<std::uint32_t> counts;
      std::vector<std::int64_t> flat;
      std::vector<double> bytes, loads;
      for (const PeerBlocks& p : *peers) {
        working.push_back(p.working);
        counts.push_back(static_cast<std::uint32_t>(p.size()));
        flat.insert(flat.end(), p.blocks.begin(), p.blocks.end());
        bytes.insert(bytes.end(), p.bytes.begin(), p.bytes.end());
        loads.insert(loads.end(), p.loads.begin(), p.loads.end());
      }
      writer(working, counts, flat, bytes, loads);
    }
    return out;
  }
};

// A GossipMessage as received: read in place from its encoding (serialize.hpp: the round, then
// each vector as a 64-bit length and its elements), since most receivers only test each rank
// against a bitmap, or, once they will neither forward nor transfer, read nothing.
class GossipView {
 public:
  using encoded = GossipMessage;
  // Throws std::out_of_range if `bytes` is not a GossipMessage's encoding.
  explicit GossipView(std::span<const std::byte> bytes);
  // The encoding it reads (valid as long as the bytes it was made from).
  std::span<const std::byte> bytes() const { return encoding_; }
  std::int32_t round() const { return round_; }
  std::size_t size() const { return size_; }
  bool has_headrooms() const { return headrooms_ != nullptr; }
  // Entries are unaligned in the payload: copied out element by element.
  Rank rank(std::size_t i) const { return element<Rank>(ranks_, i); }
  double load(std::size_t i) const { return element<double>(loads_, i); }
  double headroom(std::size_t i) const { return element<double>(headrooms_, i); }
  bool has_blocks() const { return working_ != nullptr; }
  // The i-th rank's PeerBlocks (has_blocks() only).
  PeerBlocks blocks(std::size_t i) const;

 private:
  template <class T>
  static T element(const std::byte* at, std::size_t i) {
    T value;
    std::memcpy(&value, at + i * sizeof(T), sizeof(T));
    return value;
  }
  std::span<const std::byte> encoding_;
  std::int32_t round_ = 0;
  std::size_t size_ = 0;
  const std::byte* ranks_ = nullptr;
  const std::byte* loads_ = nullptr;
  const std::byte* headrooms_ = nullptr;  // null when the message carries none
  const std::byte* working_ = nullptr;    // null when the message has no block tail
  const std::byte* counts_ = nullptr;
  const std::byte* blocks_ = nullptr;
  const std::byte* bytes_ = nullptr;
  const std::byte* block_loads_ = nullptr;
  std::vector<std::size_t> block_start_;  // per rank: its first block
};

// Objects proposed to the receiving rank by one overloaded rank in one iteration (or sent back
// to it by a receiver that did not admit them), with the sender's load when it decided each one
// (seconds, aligned with objects; empty where the receiver must take them all).
//
// A cluster swap (cluster_swap.cpp): when swap_id >= 0, the objects of the message whose shared
// block is (swap_id, swap_home) are one unit, admitted whole or returned whole, and the receiver
// may make room for it by sending back one whole cluster of its own (in its returned message).
// The rest says what the receiver needs to judge that cluster at the sender: the sender's work
// once everything it proposed has left and every other swap's cluster has come back (seconds),
// the most work this cluster may add there (+inf for a sender's only swap), its alpha, the bytes
// this swap may bring back whatever else is returned to it (its share when it proposed several),
// and the blocks and largest working bytes it holds with every swap's unit gone.
//
// A load-only swap offer (load_swap.cpp) when `offer` is set: the objects are candidate units,
// of which the receiver takes at most one, and the returned message brings back the others with
// the receiver's objects given in exchange.
struct TransferMessage {
  std::vector<Held> objects;
  std::vector<double> sender_loads;
  bool offer = false;
  std::int64_t swap_id = -1;
  Rank swap_home = no_rank;
  double swap_after = 0.0;
  double swap_cap = HUGE_VAL;
  double swap_alpha = 1.0;
  double swap_headroom = 0.0;
  PeerBlocks swap_blocks;
  template <class A>
  void serialize(A& ar) {
    ar(objects, sender_loads, offer, swap_id, swap_home, swap_after, swap_cap, swap_alpha, swap_headroom, swap_blocks);
  }
};

// A swap a sender decided on (propose_modeled): the peer (index into its peers), the unit's block,
// the work the peer's cluster was expected to add here (seconds) and the bytes it was expected to
// add here (its block's, unless held here).
struct SwapPlan {
  std::size_t peer;
  std::pair<std::int64_t, Rank> key;
  double work;
  double bytes;
};

// What choose_swap found for one object refused for memory: the unit to send (indices into the
// sender's objects, the refused object first) and the peer's cluster expected back (index into
// the peer's PeerBlocks; npos: no swap fits), with the peer's work after, the work and bytes the
// cluster adds at the sender, and the bytes the unit adds at the peer (upper bounds).
struct SwapChoice {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<std::size_t> unit;
  std::size_t cluster = npos;
  double peer_after = 0.0;
  double work = 0.0;
  double bytes = 0.0;
  double adds = 0.0;
};

// The peer as the sender sees it while proposing (choose_swap's arguments).
struct SwapPeer {
  Rank rank;
  double load;      // its work with what was proposed to it so far, seconds
  double headroom;  // bytes it may still take
  double working;   // its largest working bytes
  const PeerBlocks* blocks;
};

// transfer=sequential: the turn, passed from rank r to r + 1 once r has made its transfers.
struct TurnToken {
  std::vector<double> change;  // by rank: load gained (or shed) in earlier turns, seconds
  std::vector<Rank> pending_to;  // aligned with pending: the rank each object was given to
  std::vector<Held> pending;     // objects given to ranks whose turn is still to come
  template <class A>
  void serialize(A& ar) {
    ar(change, pending_to, pending);
  }
};

// An underloaded rank's load (or work), sent to rank 0 for complete knowledge, the bytes it may
// still take under its memory limit (+inf without one) and, when tracked, its blocks.
struct LoadReport {
  double load = 0.0;  // seconds
  double headroom = 0.0;
  PeerBlocks blocks;
  template <class A>
  void serialize(A& ar) {
    ar(load, headroom, blocks);
  }
};

// Work model with beta != 0: edges recorded by a rank, sent to the directory rank of each end
// (hash of the object id), with the objects the sender holds, so that every edge reaches the
// ranks holding its ends whichever rank recorded it.
struct DirectoryMessage {
  std::vector<ObjectId> objects;    // held by the sender
  std::vector<ObjectId> endpoints;  // aligned with edges: the end this directory rank serves
  std::vector<LbEdge> edges;
  template <class A>
  void serialize(A& ar) {
    ar(objects, endpoints, edges);
  }
};

// With a node map that groups ranks: where objects were when balancing started, directory rank to
// directory rank ("object X is held by rank r"), so that edges reach holders with their peers' ranks.
struct LocationMessage {
  std::vector<ObjectId> objects;
  std::vector<Rank> ranks;  // aligned with objects
  template <class A>
  void serialize(A& ar) {
    ar(objects, ranks);
  }
};

struct EdgeDelivery {
  std::vector<LbEdge> edges;
  // With a grouping node map only: the rank holding each peer of the edges that is known.
  std::vector<ObjectId> located;
  std::vector<Rank> located_ranks;  // aligned with located
  template <class A>
  void serialize(A& ar) {
    ar(edges, located, located_ranks);
  }
};

// The moves of the receiver's original objects in the chosen proposal.
struct PlanMessage {
  std::vector<Migration> moves;
  template <class A>
  void serialize(A& ar) {
    ar(moves);
  }
};

// S^p and LOAD^p of Algorithm 1: the underloaded ranks a rank heard of, with their loads, in the
// order it heard of them, plus a membership bitmap over all P ranks so that merging a message costs
// one bit test per entry (the gossip carries lists of up to P entries, P x fanout times a round).
//
// With a cap (the max_known key) a rank keeps only the `cap` entries of smallest priority, a hash
// of (salt, rank) with a salt of its own: a bottom-k sample of everything it heard of, uniform,
// different on every rank, and a function of the set heard of alone (merging bottom-k samples is
// commutative), so deterministic mode stays order-independent. The bitmap still marks every rank
// heard of: one dropped later is never added back, and gossip targets avoid it. Lists and
// messages then hold at most 2 cap entries instead of up to P, which is what keeps P = 16,384
// from costing P^2.
class Knowledge {
 public:
  void clear();
  // Clears and gives the memory back (lists and bitmap): for a rank whose knowledge will not be
  // read again this inform stage, so that the peak holds only the lists still to be read.
  void release();
  // 0: no cap. Set before the first add of an inform stage.
  void limit(std::size_t cap, std::uint64_t salt) {
    cap_ = cap;
    salt_ = salt;
  }
  // Reduces the lists to the bottom `cap` (a no-op without a cap or below it). Call before reading
  // ranks(), loads() or headroom() after adds.
  void settle() {
    if (cap_ != 0 && ranks_.size() > cap_) compact();
  }
  // Ranks heard of (kept or dropped).
  std::size_t seen() const { return seen_; }
  bool contains(Rank r) const {
    const auto i = static_cast<std::size_t>(r);
    return i / 64 < bits_.size() && (bits_[i / 64] >> (i % 64) & 1U) != 0;
  }
  // Adds r unless known. `ranks` is P, the size of the bitmap. Inline: the gossip calls it once
  // per entry of every message, hundreds of millions of times per iteration on 4096 ranks.
  void add(Rank r, double load, Rank ranks, double headroom = HUGE_VAL, const PeerBlocks* blocks = nullptr) {
    if (bits_.empty()) bits_.assign((static_cast<std::size_t>(ranks) + 63) / 64, 0);
    const auto i = static_cast<std::size_t>(r);
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    if ((bits_[i / 64] & bit) != 0) return;
    bits_[i / 64] |= bit;
    ++seen_;
    if (cap_ != 0) {
      // Above the cut of an earlier compaction: it can never be in the bottom cap again.
      const std::uint64_t priority = priority_of(r);
      if (priority > cut_) return;
      priorities_.push_back(priority);
    }
    ranks_.push_back(r);
    loads_.push_back(load);
    if (track_headroom_) headrooms_.push_back(headroom);
    if (track_blocks_) blocks_.push_back(blocks != nullptr ? *blocks : PeerBlocks{});
    if (cap_ != 0 && ranks_.size() >= 2 * cap_) compact();
  }
  // add() for every entry of a received message. Without cap and headrooms (the default keys) it
  // runs one loop over the message with the lists grown once, by at most half their size beyond
  // what the message can add, rather than a doubling.
  void merge(const GossipView& message, Rank ranks);
  // Headrooms are kept only under memory limits: without them they would add P^2 doubles over all
  // ranks for nothing. Set before the first add of an inform stage.
  void track_headroom(bool on) { track_headroom_ = on; }
  // The headroom of the i-th known rank, bytes (+inf when not tracked).
  double headroom(std::size_t i) const { return track_headroom_ ? headrooms_[i] : HUGE_VAL; }
  // Blocks are kept only when Shared::blocks says so. Set before the first add.
  void track_blocks(bool on) { track_blocks_ = on; }
  bool tracks_blocks() const { return track_blocks_; }
  // The i-th known rank's blocks (empty when not tracked).
  const PeerBlocks& blocks(std::size_t i) const {
    static const PeerBlocks none;
    return track_blocks_ ? blocks_[i] : none;
  }
  const std::vector<PeerBlocks>& all_blocks() const { return blocks_; }
  std::size_t size() const { return ranks_.size(); }
  const std::vector<Rank>& ranks() const { return ranks_; }
  const std::vector<double>& loads() const { return loads_; }
  const std::vector<double>& headrooms() const { return headrooms_; }
  // Indices into ranks() (and loads(), headroom()) in ascending rank order, read off the bitmap's
  // running popcounts instead of sorting: O(size + P / 64). Call after settle().
  std::vector<std::size_t> rank_order() const;
  // Up to `count` distinct ranks of [0, P) that are neither known nor `self`, drawn uniformly.
  std::vector<Rank> sample_unknown(Random& random, Rank ranks, Rank self, std::size_t count) const;

 private:
  std::vector<std::uint64_t> bits_;  // allocated on first add
  std::vector<Rank> ranks_;
  std::vector<double> loads_;
  std::vector<double> headrooms_;  // bytes each may still take, when tracked
  bool track_headroom_ = false;
  std::vector<PeerBlocks> blocks_;  // when tracked
  bool track_blocks_ = false;
  std::size_t seen_ = 0;
  std::size_t cap_ = 0;
  std::uint64_t salt_ = 0;
  std::uint64_t cut_ = ~std::uint64_t{0};  // largest priority kept by the last compaction
  std::vector<std::uint64_t> priorities_;  // of ranks_, when capped
  std::uint64_t priority_of(Rank r) const { return mix64(salt_ ^ mix64(static_cast<std::uint64_t>(r))); }
  void compact();  // keeps the bottom cap_ by priority, in the order heard of
};

// What every rank agrees on during one iteration; set between collective steps only.
struct Shared {
  const TemperedOptions* options = nullptr;
  Rank size = 0;
  int rounds = 0;          // k
  double average = 0.0;    // l_ave, seconds
  std::int64_t underloaded = 0;  // ranks below l_ave this iteration: a rank knowing them all
                                 // has nothing left to learn and skips merging
  std::uint64_t trial = 0;
  std::uint64_t iteration = 0;
  // Work model (work_mode.cpp): modeled when work is not load or a memory limit applies; then
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

class TemperedRank {
 public:
  TemperedRank(const Shared& shared, const StrategyInput& input);

  double load() const;  // of the current proposal, seconds
  // What the balancer evens out: load, or work when the model is on (seconds).
  double value() const { return shared_->modeled ? modeled().work() : load(); }
  bool underloaded() const { return value() < shared_->average; }
  // Whether this rank's input needs the work model (load_only_here false, or a memory limit).
  bool needs_model() const;
  bool has_limit() const { return std::isfinite(limit_); }

  // --- work model (work_mode.cpp) ---
  // The edge exchange (beta != 0): send recorded edges to the directory ranks of their ends,
  // then the directory ranks pass them to the holders, which attach them to their objects.
  void send_to_directory(comm::Communicator& ctx);
  void on_directory(comm::Communicator& ctx, const DirectoryMessage& message);
  // With a grouping node map, between the two: each directory rank tells the directory rank of
  // every edge's other end where its own end is held.
  void share_locations(comm::Communicator& ctx);
  void on_locations(comm::Communicator& ctx, const LocationMessage& message);
  void forward_edges(comm::Communicator& ctx);
  void on_edges(comm::Communicator& ctx, const EdgeDelivery& message);
  void attach_edges();
  std::int64_t rejected_memory() const { return rejected_memory_; }

  // --- inform (Algorithm 1) ---
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
  std::vector<double> take_underloads() { return std::move(underloads_); }
  std::vector<PeerBlocks> take_underload_blocks() { return std::move(underload_blocks_); }
  void learn_all(const std::vector<double>& underloads, const std::vector<PeerBlocks>& blocks);
  // A message of round r is merged once this rank has run its own step r - 1 (inform for r = 1,
  // forward_if_reached(r - 1) after): in deterministic mode a faster rank's step can reach this
  // rank before this rank ran the same step, and merging early would change what this rank
  // forwards, and whether it forwards at all, against lbsim's sequential replay. Such a message
  // is kept (a copy of its bytes) until the step.
  void on_gossip(comm::Communicator& ctx, const GossipView& message);

  // --- transfer (Algorithm 2) ---
  // Runs TRANSFER on the current proposal and sends the accepted objects to their new ranks;
  // transfers() and rejected() count this iteration's decisions.
  void propose(comm::Communicator& ctx);
  std::int64_t transfers() const { return transfers_; }
  std::int64_t rejected() const { return rejected_; }
  std::int64_t swaps() const { return swaps_; }
  void on_proposal(comm::Communicator& ctx, const TransferMessage& message);
  // transfer=sequential: takes the objects the token carries for this rank, runs
  // transfer_in_turn against current loads (gossiped load + change), records its moves in the
  // token and passes it to the next rank. Rank 0 starts with an empty token.
  void take_turn(comm::Communicator& ctx, TurnToken token);
  void on_turn(comm::Communicator& ctx, const TurnToken& token) { take_turn(ctx, token); }
  // Appends the objects proposed to this rank, in sender order (arrival order varies on a live
  // job, storage order must not: it is the "arbitrary" ordering of the next iteration). With
  // admit=receiver (distributed transfer) it admits them most loaded sender first while the
  // criterion holds against its own load so far, and sends the rest back.
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
  Random stream(Stage stage, std::uint64_t round) const;
  // Whether what this rank knows may still be read after a message of `round` is handled: by
  // its own transfer stage, or by a gossip forward still to come. A rank that neither transfers
  // nor forwards again need not merge: at P = 16,384 the last round carries most of a stage's
  // entries, mostly to such ranks, and their lists were most of the inform stage's memory.
  bool knowledge_read_later(int round) const;
  // Known underloaded ranks other than this one, in rank order (the order knowledge arrived in
  // varies between backends, the CMF must not).
  std::vector<Peer> known_peers();
  // Removes the accepted objects from held_ and returns them, in decision order.
  std::vector<Held> take_accepted(const TransferOutcome& outcome);
  void send_gossip(comm::Communicator& ctx, int round, Random& random);
  // Merges a message (and, without deterministic rounds, forwards it).
  void absorb(comm::Communicator& ctx, const GossipView& message);
  // Deterministic rounds: this rank ran its step `round` (0: inform); merges what was kept for it.
  void end_step(comm::Communicator& ctx, int round);
  // The work and memory of the current proposal.
  RankWork modeled() const;
  double headroom() const { return has_limit() ? limit_ - modeled().memory() : HUGE_VAL; }
  // What this rank tells senders about its blocks (Shared::blocks only).
  PeerBlocks own_blocks() const;
  // An arrived object (arrivals_[message].second.objects[index]) and its sender's load, or work
  // with the model on, when it decided to send it (seconds).
  struct Candidate {
    double sender_load;
    Rank source;
    std::size_t message;
    std::size_t index;
  };
  // Every arrived object in the order receivers admit them: most loaded sender first, ties by
  // rank, then by the sender's own order.
  std::vector<Candidate> candidates() const;
  // Work-model TRANSFER (distributed) and admission of arrivals.
  void propose_modeled(comm::Communicator& ctx);
  void admit_modeled(comm::Communicator& ctx);
  // Cluster swaps (cluster_swap.cpp). A unit that arrived as a swap: admits it whole, alone or
  // in exchange for one of this rank's clusters (added to `back`), into `state`, or returns it
  // whole. Returns whether it was admitted.
  bool admit_swap(RankWork& state, TransferMessage& message, Rank source, double sender_work,
                  std::vector<Held>& back);
  // The sender's side, once its proposals are decided: fills each swap's fields in its message
  // (aligned with swaps), from `before` (this rank before proposing) and `after` (its work with
  // everything proposed gone).
  // The sender's choice of a swap for held_[object], refused for memory by `peer`: the object
  // alone (its block's other objects may follow it) or its whole cluster here (which frees the
  // block, so that a cluster of another block can come back), against each cluster the peer
  // informed of; judged against both ranks' work and against the memory this rank can take back
  // with the swaps already chosen (`swaps`, whose units are the leaving objects of their blocks).
  SwapChoice choose_swap(std::size_t object, const SwapPeer& peer, const RankWork& state, const RankWork& before,
                         const std::vector<bool>& leaving, const std::vector<SwapPlan>& swaps, double own,
                         double reserved) const;
  void finish_swaps(const RankWork& before, double after, const std::vector<SwapPlan>& swaps,
                    const std::vector<TransferMessage*>& messages) const;
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
  std::int64_t rejected_memory_ = 0;
  std::unordered_map<ObjectId, Rank, ObjectIdHash> directory_;     // directory rank: holder by object
  std::vector<std::pair<ObjectId, LbEdge>> directory_edges_;        // directory rank: edges by end
  std::unordered_map<ObjectId, Rank, ObjectIdHash> peer_holders_;  // directory rank: holders of other ends
  std::vector<LbEdge> delivered_;
  std::unordered_map<ObjectId, Rank, ObjectIdHash> located_;        // holder: ranks of its objects' peers
  std::int32_t node() const { return shared_->nodes ? shared_->nodes->node_of(rank_) : -1; }
  std::vector<Held> start_;
  std::vector<Held> held_;
  std::vector<Held> best_;
  Knowledge known_;
  int reached_round_ = 0;            // highest gossip round received (synchronous mode)
  int stepped_ = -1;                 // synchronous mode: the last step run this stage (0: inform)
  std::vector<std::vector<std::byte>> early_;  // synchronous mode: messages ahead of stepped_ + 1
  std::vector<bool> forwarded_;      // per round: already forwarded (asynchronous mode)
  int forwards_left_ = 0;            // rounds 1..k-1 not yet forwarded (asynchronous mode)
  bool transferring_ = false;        // reads its knowledge in the transfer stage
  std::vector<double> underloads_;   // rank 0 with complete knowledge: load by rank
  std::vector<PeerBlocks> underload_blocks_;  // and, when tracked, blocks by rank
  std::int64_t transfers_ = 0;
  std::int64_t rejected_ = 0;
  std::int64_t swaps_ = 0;
  std::vector<std::pair<Rank, TransferMessage>> arrivals_;
  std::vector<std::pair<Rank, std::vector<Held>>> returns_;
  std::vector<Migration> plan_;
};

}  // namespace tessera::lb::tempered
