#pragma once
// What TemperedLB's ranks send each other: the objects they hold and move, the gossip of the
// inform stage (seed 003, Algorithm 1), transfer proposals and returns, the sequential turn, the
// complete-knowledge report, the work model's edge exchange and the final plan.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "tessera/lb/comm.hpp"
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
  std::size_t total_blocks_ = 0;
  // Per rank: its first block. Built on the first blocks() call of a message that has any: most
  // messages carry none, and most entries are never read.
  mutable std::vector<std::size_t> block_start_;
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

}  // namespace tessera::lb::tempered
