#pragma once
// The work model's sender and receiver for TemperedLB's transfer stage (measure.hpp has the
// algorithm and what a sender and a receiver answer). A rank's value is its work (seconds,
// work_model.hpp), judged against the receiver's memory limit. Shared blocks are placed as CCM-LB's
// clusters (Pebay et al. 2023): objects of a block follow the first of them to its peer, a peer
// known to hold the block takes them first, and an object refused for memory may go in a cluster
// swap (cluster_swap.cpp).

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "measure.hpp"
#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

// A swap a sender decided on: the peer (index into its peers), the unit's block, the work the
// peer's cluster was expected to add here (seconds) and the bytes it was expected to add here
// (its block's, unless held here).
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

// The sender: its exact work as objects leave, and each peer as far as the peer informed (work,
// headroom, blocks, largest working bytes) plus what was proposed to it.
class TemperedRank::WorkSender {
 public:
  // A swap's cluster coming back lowers the peer's work, and a lower maximum changes normbymax.
  static constexpr bool peer_values_only_grow = false;
  // An object offered to a peer. after_peer and adds are upper bounds: every byte of the object's
  // edges counted off the peer's node, its block counted unless known to be there.
  struct Trial {
    std::size_t object = 0;
    std::size_t peer = 0;
    bool block_there = false;  // its block is on the peer (informed, or sent there in this proposal)
    double after_peer = 0.0;   // the peer's work with the object, seconds
    double after_own = 0.0;    // this rank's work without it, seconds
    double adds = 0.0;         // bytes the peer's memory grows by
    double peer_after = 0.0;   // the peer's work once the move is made (less a swap's cluster), seconds
    std::vector<std::size_t> unit = {};  // what moves: the object, or a swap's unit
    bool swapped = false;
  };

  // `known`: the knowledge index of each peer propose() will pass (TemperedRank::known_peers).
  WorkSender(const TemperedRank& rank, const std::vector<std::size_t>& known);

  double value() const { return own_; }
  const std::vector<LbObject>& marginals() const { return marginal_; }
  bool sent(std::size_t object) const { return leaving_[object]; }
  std::size_t bound_peer(std::size_t object, const std::vector<Peer>& peers) const;
  Trial offer(std::size_t object, std::size_t peer, const std::vector<Peer>& peers) const;
  bool fits(const Trial& t) const { return !(t.adds > headroom_[t.peer]); }
  bool make_room(Trial& t, const std::vector<Peer>& peers);
  bool holds(const Trial& t, const std::vector<Peer>& peers) const;
  const std::vector<std::size_t>& send(Trial& t, std::vector<Peer>& peers);
  // Once every proposal is decided: each cluster swap's share of the memory and work this rank
  // can take back, into its message (cluster_swap.cpp).
  void finish(std::map<Rank, TransferMessage>& outgoing, const std::vector<Peer>& peers) const;

 private:
  // The swap for rank_.held_[object], refused for memory by `peer` (cluster_swap.cpp): the object
  // alone (its block's other objects may follow it) or its whole cluster here (which frees the
  // block, so that a cluster of another block can come back), against each cluster the peer
  // informed of; judged against both ranks' work and against the memory this rank can take back
  // with the swaps already chosen (whose units are the leaving objects of their blocks).
  SwapChoice choose_swap(std::size_t object, const SwapPeer& peer) const;

  const TemperedRank& rank_;
  const TemperedOptions& options_;
  RankWork state_;         // this rank with what was proposed so far gone
  const RankWork before_;  // this rank before proposing
  double own_;             // state_.work(), seconds
  std::vector<LbObject> marginal_;
  std::vector<bool> leaving_;                      // by object
  std::vector<double> headroom_;                   // by peer: bytes it may still take
  std::vector<PeerBlocks> there_;                  // by peer: what it held when it informed
  std::vector<double> working_sent_;               // by peer: its largest working bytes, with what was sent
  std::map<std::int64_t, std::size_t> block_peer_;  // shared_id -> the peer its objects follow
  // Cluster swaps, at most one per peer (a message carries one unit): each receiver may send a
  // cluster back, so the sender reserves for each swap the work its cluster may bring back
  // (`reserved_`, counted in later swap decisions and capped at the receiver) and, once all are
  // decided, splits the memory it can take back among them (finish).
  std::vector<SwapPlan> swaps_;
  std::vector<bool> swapping_;  // by peer
  double reserved_ = 0.0;       // seconds
};

// The receiver: its exact work and memory as arrivals are admitted. Memory limits hold whatever
// admit says; admit=receiver adds the criterion.
class TemperedRank::WorkReceiver {
 public:
  static constexpr bool clusters = true;

  explicit WorkReceiver(TemperedRank& rank);

  bool takes_all() const { return false; }
  bool has_room(const Held& held) const { return !(state_.memory_with(held.object, held.origin) > rank_.limit_); }
  bool accepts(const Held& held, double sender) const;
  void take(const Held& held) { state_.add(held.object, held.edges, held.origin); }
  // A unit that arrived as a cluster swap (cluster_swap.cpp): admits it whole, alone or in
  // exchange for one of this rank's clusters (added to `back`), or returns it whole.
  void admit_unit(TransferMessage& message, Rank source, double sender_work, std::vector<Held>& back);

 private:
  TemperedRank& rank_;
  RankWork state_;
  bool check_;  // admit=receiver
};

}  // namespace tessera::lb::tempered
