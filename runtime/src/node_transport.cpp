// Transport for ranks that share a node: batches between them travel through shared-memory rings
// (shm_ring.hpp), everything else through the MPI transport it wraps.
//
// Each rank allocates, in one MPI-3 shared window over its node's ranks, one inbound ring per
// other rank of the node; a sender writes into the receiver's memory, and the receiver polls the
// first word of its next record. A batch costs the sender one copy into the ring and the receiver
// nothing: the runtime delivers from the ring and releases the record afterwards.
//
// Per-pair order (the runtime relies on it, as on MPI's non-overtaking rule) survives the two
// paths between a pair of ranks of one node:
//   - a batch larger than a quarter of the ring goes through MPI, announced by a marker record in
//     the ring; the receiver reads that pair's ring no further until the MPI batch is delivered,
//     and holds an MPI batch from a rank of its node until its marker has been read;
//   - when the ring is full, batches (and markers) wait in a per-peer backlog, in order, that
//     progress() and later sends move into the ring as the receiver releases records.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>
#include "shm_ring.hpp"
#include "transports.hpp"

#include <mpi.h>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <deque>
#include <vector>

namespace tessera {
namespace {

constexpr int kShmSlot = -2;                       // Incoming::slot of a record read from a ring
constexpr std::size_t kStagger = 17 * shm::kLine;  // rings at a power-of-two stride would alias in cache
constexpr std::size_t kAutoNodeBytes = std::size_t{64} << 20;
constexpr int kRingChecksPerTry = 8;
constexpr std::uint32_t kNetworkEvery = 64;

// Between two reads of a ring's next header while idle: a read after read of the line the sender
// is about to write keeps pulling it back from the sender's core, and the write (the message)
// waits for it. x86's pause spaces the reads. Measured (2 ranks, interleaved runs): the empty
// epoch 1.79x MPI_Barrier without it and 1.60x with it; with network_due below as well, 8 B
// one-way 1.15x MPI's against 1.37x before both.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

struct Pending {
  bool marker = false;
  Buffer bytes;
};

// One other rank of this node, as seen from this rank.
struct Peer {
  int rank = -1;
  shm::Producer out;
  shm::Consumer in;
  std::deque<Pending> backlog;    // waiting for ring space, in send order
  std::uint64_t announced = 0;    // markers read: MPI batches this peer announced
  std::uint64_t delivered = 0;    // MPI batches from this peer delivered
  std::deque<Incoming> early;     // MPI batches that arrived before their marker was read
  bool blocked() const { return announced > delivered; }  // the ring waits for an MPI batch
};

class NodeTransport final : public Transport {
 public:
  NodeTransport(MPI_Comm comm, MPI_Comm node, std::size_t ring_bytes, std::unique_ptr<Transport> network)
      : network_(std::move(network)), node_(node), ring_bytes_(ring_bytes) {
    MPI_Comm_rank(node_, &local_rank_);
    int locals = 0;
    MPI_Comm_size(node_, &locals);
    MPI_Group node_group, group;
    MPI_Comm_group(node_, &node_group);
    MPI_Comm_group(comm, &group);
    std::vector<int> local_ranks(static_cast<std::size_t>(locals));
    std::vector<int> ranks(local_ranks.size());
    for (int i = 0; i < locals; ++i) local_ranks[static_cast<std::size_t>(i)] = i;
    MPI_Group_translate_ranks(node_group, locals, local_ranks.data(), group, ranks.data());
    MPI_Group_free(&node_group);
    MPI_Group_free(&group);

    // One inbound ring per rank of the node (this rank's own is unused), staggered.
    const std::size_t stride = shm::region_bytes(ring_bytes_) + kStagger;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    std::byte* mine = nullptr;
    MPI_Win_allocate_shared(static_cast<MPI_Aint>(stride * ranks.size()), 1, info, node_, &mine, &window_);
    MPI_Info_free(&info);
    // Only what a new ring's two ends read before anything is written: a 16 MiB ring's pages are
    // touched when records first reach them, not all at start-up (+25 ms with 2 ranks).
    for (std::size_t l = 0; l < ranks.size(); ++l) shm::prepare_region(mine + stride * l);
    MPI_Barrier(node_);

    local_of_.assign(static_cast<std::size_t>(network_->size()), -1);
    peers_ = std::vector<Peer>(ranks.size());  // built in place: a Peer does not move
    for (int i = 0; i < locals; ++i) {
      const auto l = static_cast<std::size_t>(i);
      local_of_[static_cast<std::size_t>(ranks[l])] = i;
      if (i == local_rank_) continue;
      MPI_Aint bytes = 0;
      int unit = 0;
      std::byte* theirs = nullptr;
      MPI_Win_shared_query(window_, i, &bytes, &unit, &theirs);
      peers_[l].rank = ranks[l];
      peers_[l].out = shm::Producer(theirs + stride * static_cast<std::size_t>(local_rank_), ring_bytes_);
      peers_[l].in = shm::Consumer(mine + stride * l, ring_bytes_);
    }
    local_of_[static_cast<std::size_t>(network_->rank())] = -1;  // self-sends stay with the network
    remote_ranks_ = locals < network_->size();
  }

  ~NodeTransport() override {
    while (progress() != 0) {
    }
    for (Peer& peer : peers_)
      for (Incoming& in : peer.early) network_->release(std::move(in));
    MPI_Barrier(node_);  // no rank may still be writing into a ring of this window
    MPI_Win_free(&window_);
    MPI_Comm_free(&node_);
  }

  int rank() const override { return network_->rank(); }
  int size() const override { return network_->size(); }
  std::string description() const override { return network_->description(); }

  void send(int dest, Buffer&& bytes) override {
    const int l = local_of_[static_cast<std::size_t>(dest)];
    if (l < 0) return network_->send(dest, std::move(bytes));
    Peer& peer = peers_[static_cast<std::size_t>(l)];
    if (bytes.size() > peer.out.max_payload()) {
      enqueue(peer, Pending{true, Buffer()});
      network_->send(dest, std::move(bytes));
      return;
    }
    enqueue(peer, Pending{false, std::move(bytes)});
  }

  std::byte* reserve(int dest, std::size_t capacity) override {
    const int l = local_of_[static_cast<std::size_t>(dest)];
    if (l < 0) return nullptr;
    Peer& peer = peers_[static_cast<std::size_t>(l)];
    // Behind a backlog the message would overtake what waits there; too large, it goes by MPI.
    if (!peer.backlog.empty() || capacity > peer.out.max_payload()) return nullptr;
    return peer.out.reserve(capacity);
  }

  void commit(int dest, std::size_t size) override {
    peers_[static_cast<std::size_t>(local_of_[static_cast<std::size_t>(dest)])].out.commit(shm::Kind::data, size);
  }

  bool poll(Incoming& out) override {
    const std::size_t n = peers_.size();
    std::size_t l = next_peer_;  // counted round without a division: this runs on every empty turn
    for (std::size_t k = 0; k < n; ++k, ++l) {
      if (l == n) l = 0;
      if (static_cast<int>(l) == local_rank_) continue;
      if (take_from(peers_[l], out)) {
        next_peer_ = l + 1 == n ? 0 : l + 1;
        return true;
      }
    }
    if (!network_due()) return false;
    Incoming in;
    while (network_->poll(in)) {
      const int l = in.source >= 0 ? local_of_[static_cast<std::size_t>(in.source)] : -1;
      if (l >= 0) {
        Peer& peer = peers_[static_cast<std::size_t>(l)];
        // Its marker not read yet: hold it. (A blocked peer's earlier MPI batches went out in
        // take_from above, so this one is next in order.)
        if (!peer.blocked()) {
          peer.early.push_back(std::move(in));
          continue;
        }
        ++peer.delivered;
        ++delivered_;
      }
      out = std::move(in);
      return true;
    }
    return false;
  }

  void release(Incoming&& in) override {
    if (detail::ReceiveTokens::slot(in.token) == kShmSlot) {
      peers_[static_cast<std::size_t>(local_of_[static_cast<std::size_t>(in.source)])].in.release(in.bytes.data());
      in.bytes = {};
      detail::ReceiveTokens::slot(in.token) = -1;
      return;
    }
    network_->release(std::move(in));
  }

  bool probe() override { return ring_ready() || (network_due() && network_->probe()); }

  // A try checks the rings kRingChecksPerTry times, then MPI once when it is due (network_due):
  // a ring check reads one word, an MPI test runs MPI's whole progress engine, and a record that
  // lands during it waits for it.
  bool await(int tries) override {
    for (int i = 0; i < tries; ++i) {
      for (int k = 0; k < kRingChecksPerTry; ++k) {
        if (ring_ready()) return true;
        spin_pause();
      }
      if (network_due() && network_->await(1)) return true;
    }
    return false;
  }

  std::size_t progress() override {
    std::size_t waiting = 0;
    for (Peer& peer : peers_) {
      drain_backlog(peer);
      waiting += peer.backlog.size();
    }
    return waiting + network_->progress();
  }

  Buffer acquire(std::size_t capacity) override { return network_->acquire(capacity); }
  void recycle(Buffer&& bytes) override { network_->recycle(std::move(bytes)); }

 private:
  void enqueue(Peer& peer, Pending&& pending) {
    if (peer.backlog.empty() && write(peer, pending)) return;
    peer.backlog.push_back(std::move(pending));
  }

  bool write(Peer& peer, Pending& pending) {
    if (pending.marker) return peer.out.write(shm::Kind::marker, {});
    if (!peer.out.write(shm::Kind::data, pending.bytes.view())) return false;
    network_->recycle(std::move(pending.bytes));
    return true;
  }

  void drain_backlog(Peer& peer) {
    while (!peer.backlog.empty() && write(peer, peer.backlog.front())) peer.backlog.pop_front();
  }

  // The next batch from `peer` in send order: from its ring, or the MPI batch its last marker
  // announced.
  bool take_from(Peer& peer, Incoming& out) {
    for (;;) {
      if (peer.blocked()) {
        if (peer.early.empty()) return false;
        out = std::move(peer.early.front());
        peer.early.pop_front();
        ++peer.delivered;
        ++delivered_;
        return true;
      }
      shm::Record record;
      if (!peer.in.next(record)) return false;
      if (record.kind == shm::Kind::marker) {
        ++peer.announced;
        ++announced_;
        continue;
      }
      out.source = peer.rank;
      out.bytes = record.payload;
      detail::ReceiveTokens::slot(out.token) = kShmSlot;
      return true;
    }
  }

  // Whether this poll should look at the network. A job whose ranks all share this node receives
  // nothing there except batches its rings announced, and an MPI test runs MPI's whole progress
  // engine (about 0.05 us here): a record that lands in a ring meanwhile waits for it. So the
  // network is polled when some rank is off the node, when a ring waits for an announced batch,
  // and otherwise once every kNetworkEvery polls, which keeps MPI's progress engine turning for
  // what the runtime does not see (a peer's nonblocking collective, a heartbeat).
  bool network_due() {
    if (remote_ranks_ || announced_ > delivered_) return true;
    return ++skipped_ % kNetworkEvery == 0;
  }

  bool ring_ready() const {
    for (const Peer& peer : peers_)
      if (peer.rank >= 0 && (peer.in.ready() || (peer.blocked() && !peer.early.empty()))) return true;
    return false;
  }

  std::unique_ptr<Transport> network_;
  MPI_Comm node_;
  MPI_Win window_ = MPI_WIN_NULL;
  std::size_t ring_bytes_;
  int local_rank_ = 0;
  std::vector<int> local_of_;  // rank -> index among this node's ranks, -1 off the node (and self)
  std::vector<Peer> peers_;    // by index on the node; this rank's own entry is unused
  std::size_t next_peer_ = 0;  // where the next poll starts, so no peer starves the others
  bool remote_ranks_ = false;  // some rank of the job is on another node
  std::uint64_t announced_ = 0;  // markers read, over every peer
  std::uint64_t delivered_ = 0;  // announced MPI batches delivered, over every peer
  std::uint32_t skipped_ = 0;
};

// The ring size when none is given: the node's rings share 64 MiB, up to 16 MiB per ring (2 ranks
// of a node: 16 MiB, 4: 4 MiB, 8: 1 MiB), but at least 64 KiB, so batches below 16 KiB (the
// default coalescing size) still take the ring. A migrating element's state up to a quarter of
// the ring takes it too, encoded in place (Runtime::send_encoded): 1 MiB elements moved at 0.66 of
// MPI's rate through MPI and 1.3-1.8 through 16 MiB rings (tessera-bench-collection).
std::size_t auto_ring_bytes(int locals) {
  const auto pairs = static_cast<std::size_t>(locals) * static_cast<std::size_t>(locals - 1);
  const std::size_t share = std::bit_floor(kAutoNodeBytes / pairs);
  return std::clamp<std::size_t>(share, std::size_t{64} << 10, std::size_t{16} << 20);
}

}  // namespace

std::unique_ptr<Transport> detail::with_node_rings(MPI_Comm comm, std::unique_ptr<Transport> network,
                                                   const TransportOptions& options) {
  if (!options.shared_memory) return network;
  if (options.ring_bytes != 0 && (options.ring_bytes < 4096 || options.ring_bytes % shm::kLine != 0))
    throw Error(fmt::format("shared-memory ring size {} is invalid: it must be at least 4096 bytes and a "
                            "multiple of 64", options.ring_bytes));
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int locals = 0;
  MPI_Comm_size(node, &locals);
  if (locals < 2) {
    MPI_Comm_free(&node);
    return network;
  }
  const std::size_t ring = options.ring_bytes != 0 ? options.ring_bytes : auto_ring_bytes(locals);
  return std::make_unique<NodeTransport>(comm, node, ring, std::move(network));
}

}  // namespace tessera
