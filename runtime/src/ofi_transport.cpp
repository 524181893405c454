// libfabric implementation of Transport, over one reliable-datagram endpoint (FI_EP_RDM) per rank.
//
// Why: an active-message runtime that owns its endpoint, completion queue and posted buffers
// avoids MPI's matching and progress rules for its own traffic (Charm++'s OFI machine layer does
// the same). MPI stays for bootstrap only: the ranks exchange endpoint names with MPI_Allgather
// on the runtime's communicator and insert them into an address vector in rank order, so an
// fi_addr_t is a rank.
//
// Wire: every message carries 64 bits of remote CQ data (FI_REMOTE_CQ_DATA), so the receiver
// learns the source rank, the message's kind and its place in the pair's order without a header
// in the bytes the runtime reads:
//     bits 63..40 source rank | 39..38 kind (eager, rendezvous request, rendezvous done,
//     heartbeat) | 37..0 seq
//
// Receives: a ring of `kRing` buffers of `eager_bytes`, each posted with fi_recv; a buffer that
// poll() hands out is reposted when the runtime releases it. An eager message lands in the
// buffer and is read there: no copy.
//
// Rendezvous (messages above eager_bytes): the sender registers its buffer for remote reads and
// sends a 32-byte request {address, key, bytes, id} in the ordered stream; the receiver, on
// reaching it in poll(), reads the payload with fi_read into a pooled buffer (in chunks of the
// provider's max_msg_size), then answers with a `done` message carrying the id, on which the
// sender retires its buffer. The read is awaited inside poll() (progressing the CQ, and keeping
// whatever else completes meanwhile), as the MPI transport waits on its bulk MPI_Recv.
//
// Order: the runtime relies on per-pair FIFO. Each sender numbers its eager and request messages
// per destination; the receiver delivers a source's messages in that order and parks an early
// one in a per-source reorder map. With FI_ORDER_SAS (every provider here offers it) the map
// stays empty; the numbers make order independent of the provider's completion order.
//
// FI_EAGAIN: drive the CQ (which is what frees the provider's resources under manual progress)
// and retry; nothing is ever dropped. A send still refused after a few tries waits in a
// per-destination queue that each progress() retries in order (see submit), so a peer that
// cannot take messages holds back only the messages for it.
//
// Errors: a completion error is read with fi_cq_readerr and stops the job (tessera::fatal) naming
// the operation, the peer rank and fi_cq_strerror's text; so does any other failing call once the
// endpoint runs. A dead peer is found by heartbeats (kHeartbeatAfter).
//
// Registration: a provider asking for FI_MR_LOCAL gets descriptors for the receive ring (registered
// once) and for every sent or read buffer, from the cache in ofi_registrations.hpp.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>

#include "buffer_pool.hpp"
#include "ofi_library.hpp"
#include "ofi_registrations.hpp"
#include "ofi_transport.hpp"
#include "transports.hpp"

#include <mpi.h>
#include <rdma/fabric.h>
#include <unistd.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {
namespace {

constexpr std::size_t kRing = 32;
constexpr std::size_t kStagger = 17 * 64;  // bytes: slots at a power-of-two stride alias in cache
constexpr int kCqBatch = 16;
constexpr int kSendAttempts = 16;  // before a refused message is deferred (see submit)
// The longest a rank goes between two MPI progress calls while it progresses libfabric. A count
// of calls (every 16th or 64th) left a 4-rank collections test hanging in a quiescence wave, as an
// oversubscribed rank naps between calls (and Open MPI runs nonblocking collectives' progress only
// every 8th opal_progress); every call was correct but cost 25-30 % of the 8-byte latency over
// MPI-over-OFI, where each MPI_Iprobe also polls MPI's own endpoint. A time bound keeps MPI moving
// however rarely progress is called, and costs one clock read per call.
constexpr std::chrono::microseconds kMpiInterval{50};
// A peer that dies (a killed rank) closes its connections, but nothing tells a rank that only
// waits for it: its injected sends completed long ago and its receives are posted for any source.
// So a rank that has heard nothing but heartbeats for kHeartbeatAfter sends an empty message to
// up to kHeartbeatPeers peers it has been connected with (in rotation), once per
// kHeartbeatAfter; a peer's heartbeat does not count as heard, or two idle ranks would
// take turns and neither would check a third. ofi_rxm answers a send to a dead peer with
// FI_EAGAIN while it retries the connection (refused) forever, so refusals lasting
// the key peer_timeout stop the job, as would a completion error. Only peers once
// connected count: a connection to a live peer that has not yet called libfabric (busy in its
// own code) is refused the same way until it does.
constexpr std::chrono::seconds kHeartbeatAfter{1};
constexpr int kHeartbeatPeers = 64;

enum class Kind : std::uint64_t { eager = 0, request = 1, done = 2, heartbeat = 3 };
constexpr int kRankShift = 40;
constexpr int kKindShift = 38;
constexpr std::uint64_t kSeqMask = (std::uint64_t{1} << kKindShift) - 1;

std::uint64_t pack(int rank, Kind kind, std::uint64_t seq) {
  return (static_cast<std::uint64_t>(rank) << kRankShift) | (static_cast<std::uint64_t>(kind) << kKindShift) |
         (seq & kSeqMask);
}

struct Request {  // a rendezvous request: where the payload is and how to read it
  std::uint64_t address = 0;
  std::uint64_t key = 0;
  std::uint64_t bytes = 0;
  std::uint64_t id = 0;
};

// What a completion's op_context points at; the first member tells which.
enum class Op { recv, send, read };
struct Context {
  fi_context2 provider_space;  // FI_CONTEXT/FI_CONTEXT2 mode: the provider's, at the front
  Op op;
  std::size_t index = 0;  // slot of the ring, or send record
};

struct Arrival {
  int source = -1;
  Kind kind = Kind::eager;
  std::size_t slot = 0;
  std::size_t bytes = 0;
};

std::string fi_error(const char* what, ssize_t code) {
  return fmt::format("libfabric {} failed: {}", what, detail::ofi_library().strerror(static_cast<int>(-code)));
}

void check(const char* what, int code) {
  if (code != 0) throw Error(fi_error(what, code));
}

class OfiTransport final : public Transport {
 public:
  OfiTransport(MPI_Comm comm, const OfiSetup& setup, const TransportOptions& options, const OfiKeys& keys)
      : comm_(comm), options_(options), keys_(keys), info_(setup.info),
        pool_(options.pool_bytes, options.large_pool_bytes) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    mr_local_ = (info_->domain_attr->mr_mode & FI_MR_LOCAL) != 0;
    virt_addr_ = (info_->domain_attr->mr_mode & (FI_MR_VIRT_ADDR | FI_MR_BASIC)) != 0;
    max_msg_ = info_->ep_attr->max_msg_size;
    inject_bytes_ = info_->tx_attr->inject_size;
    open_endpoint();
    registrations_ = std::make_unique<OfiRegistrations>(domain_);
    exchange_addresses();
    expected_.assign(static_cast<std::size_t>(size_), 0);
    next_seq_.assign(static_cast<std::size_t>(size_), 0);
    refused_since_.resize(static_cast<std::size_t>(size_));
    connected_.assign(static_cast<std::size_t>(size_), false);
    deferred_.resize(static_cast<std::size_t>(size_));
    peer_timeout_ = std::chrono::duration<double>(keys_.peer_timeout);
    early_.resize(static_cast<std::size_t>(size_));
    ring_.resize(kRing);
    for (std::size_t i = 0; i < kRing; ++i) {
      Slot& slot = ring_[i];
      slot.buffer = Buffer(keys_.eager_bytes + kStagger * i);
      slot.data = slot.buffer.data() + kStagger * i;
      slot.context = Context{{}, Op::recv, i};
      if (mr_local_) slot.desc = fi_mr_desc(registrations_->get(slot.buffer));
      post(i);
    }
  }

  ~OfiTransport() override {
    while (progress() != 0) {  // a failed peer stops the job from inside (fatal)
    }
    MPI_Barrier(comm_);  // no rank closes its endpoint while a peer may still read from it
    if (ep_) fi_close(&ep_->fid);
    registrations_.reset();
    if (av_) fi_close(&av_->fid);
    if (cq_) fi_close(&cq_->fid);
    if (domain_) fi_close(&domain_->fid);
    if (fabric_) fi_close(&fabric_->fid);
    detail::ofi_library().freeinfo(info_);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void send(int dest, Buffer&& bytes) override {
    const std::uint64_t seq = next_seq_[static_cast<std::size_t>(dest)]++;
    if (bytes.size() <= keys_.eager_bytes) {
      submit(dest, pack(rank_, Kind::eager, seq), std::move(bytes));
      return;
    }
    fid_mr* mr = registrations_->get(bytes);
    const std::uint64_t id = next_id_++;
    Request request{virt_addr_ ? reinterpret_cast<std::uint64_t>(bytes.data()) : 0, fi_mr_key(mr), bytes.size(), id};
    rendezvous_.emplace(id, std::move(bytes));
    Buffer header = acquire(sizeof request);
    header.append(&request, sizeof request);
    submit(dest, pack(rank_, Kind::request, seq), std::move(header));
  }

  bool poll(Incoming& out) override {
    // Read the CQ only when nothing is waiting: on tcp each read is a poll(2), and one taken
    // between an arrival the runtime already saw (probe) and its handler's reply is on the
    // critical path of every round trip.
    if (ready_.empty()) drain();
    if (ready_.empty()) return false;
    const Arrival arrival = ready_.front();
    ready_.pop_front();
    Slot& slot = ring_[arrival.slot];
    out.source = arrival.source;
    if (arrival.kind == Kind::request) {
      Request request;
      std::memcpy(&request, slot.data, sizeof request);
      post(arrival.slot);  // the request has been read
      detail::ReceiveTokens::owned(out.token) = acquire(request.bytes);
      detail::ReceiveTokens::owned(out.token).resize(request.bytes);
      read(arrival.source, request, detail::ReceiveTokens::owned(out.token));
      out.bytes = detail::ReceiveTokens::owned(out.token).view();
      detail::ReceiveTokens::slot(out.token) = -1;
      Buffer done = acquire(sizeof request.id);
      done.append(&request.id, sizeof request.id);
      submit(arrival.source, pack(rank_, Kind::done, 0), std::move(done));
    } else {
      out.bytes = std::span<const std::byte>(slot.data, arrival.bytes);
      detail::ReceiveTokens::slot(out.token) = static_cast<int>(arrival.slot);
    }
    return true;
  }

  void release(Incoming&& in) override {
    if (detail::ReceiveTokens::slot(in.token) >= 0) {
      post(static_cast<std::size_t>(detail::ReceiveTokens::slot(in.token)));
    } else if (detail::ReceiveTokens::owned(in.token).capacity() != 0) {
      recycle(std::move(detail::ReceiveTokens::owned(in.token)));
    }
    in.bytes = {};
    detail::ReceiveTokens::slot(in.token) = -1;
  }

  std::string description() const override { return info_->fabric_attr->prov_name; }

  bool probe() override {
    drain();
    if (ready_.empty()) housekeeping();
    return !ready_.empty();
  }

  bool await(int tries) override {
    for (int i = 0; i < tries; ++i)
      if (probe()) return true;
    return false;
  }

  std::size_t progress() override {
    if (ready_.empty()) drain();  // as in poll(): arrivals waiting come first
    housekeeping();
    submit_deferred();
    return sends_in_flight_ + rendezvous_.size() + deferred_count_;
  }

  // A pooled buffer's registration stays cached: it is likely sent or read into next.
  Buffer acquire(std::size_t bytes) override { return pool_.acquire(bytes); }

  void recycle(Buffer&& bytes) override {
    if (!pool_.keep(bytes)) registrations_->forget(bytes);
  }

 private:
  struct Slot {
    Buffer buffer;
    std::byte* data = nullptr;
    void* desc = nullptr;
    Context context;
  };
  struct SendRecord {
    Context context;
    Buffer bytes;
    int dest = -1;
  };
  struct Deferred {
    std::uint64_t data = 0;  // the remote CQ data
    Buffer bytes;
  };

  void open_endpoint() {
    check("fi_fabric", detail::ofi_library().fabric(info_->fabric_attr, &fabric_, nullptr));
    check("fi_domain", fi_domain(fabric_, info_, &domain_, nullptr));
    fi_cq_attr cq_attr{};
    cq_attr.format = FI_CQ_FORMAT_DATA;
    cq_attr.size = 4 * kRing;
    check("fi_cq_open", fi_cq_open(domain_, &cq_attr, &cq_, nullptr));
    fi_av_attr av_attr{};
    av_attr.type = FI_AV_TABLE;  // fi_addr_t i is the i-th inserted address: the rank
    av_attr.count = static_cast<std::size_t>(size_);
    check("fi_av_open", fi_av_open(domain_, &av_attr, &av_, nullptr));
    check("fi_endpoint", fi_endpoint(domain_, info_, &ep_, nullptr));
    check("fi_ep_bind(cq)", fi_ep_bind(ep_, &cq_->fid, FI_TRANSMIT | FI_RECV));
    check("fi_ep_bind(av)", fi_ep_bind(ep_, &av_->fid, 0));
    check("fi_enable", fi_enable(ep_));
  }

  void exchange_addresses() {
    std::size_t length = 0;
    fi_getname(&ep_->fid, nullptr, &length);  // -FI_ETOOSMALL, with the length
    int longest = static_cast<int>(length);
    MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_INT, MPI_MAX, comm_);
    std::vector<char> mine(static_cast<std::size_t>(longest), 0);
    length = mine.size();
    check("fi_getname", fi_getname(&ep_->fid, mine.data(), &length));
    std::vector<char> all(mine.size() * static_cast<std::size_t>(size_));
    MPI_Allgather(mine.data(), longest, MPI_BYTE, all.data(), longest, MPI_BYTE, comm_);
    std::vector<fi_addr_t> addresses(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) {
      const int inserted = fi_av_insert(av_, all.data() + static_cast<std::size_t>(r) * mine.size(), 1,
                                        &addresses[static_cast<std::size_t>(r)], 0, nullptr);
      if (inserted != 1) throw Error(fmt::format("libfabric fi_av_insert failed for rank {}", r));
    }
    // Host names, for messages that name a peer: across nodes, "rank 3" alone does not say where.
    constexpr int kHostBytes = 64;
    std::vector<char> host(kHostBytes, 0);
    gethostname(host.data(), kHostBytes - 1);
    std::vector<char> hosts(host.size() * static_cast<std::size_t>(size_));
    MPI_Allgather(host.data(), kHostBytes, MPI_CHAR, hosts.data(), kHostBytes, MPI_CHAR, comm_);
    hosts_.resize(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) hosts_[static_cast<std::size_t>(r)] = hosts.data() + static_cast<std::size_t>(r) * kHostBytes;
  }

  // "rank R on host H", for error messages.
  std::string peer_name(int rank) const {
    if (rank < 0 || rank >= static_cast<int>(hosts_.size())) return fmt::format("rank {}", rank);
    return fmt::format("rank {} on host {}", rank, hosts_[static_cast<std::size_t>(rank)]);
  }

  void* send_desc(const Buffer& buffer) {
    return mr_local_ && buffer.capacity() != 0 ? fi_mr_desc(registrations_->get(buffer)) : nullptr;
  }

  void post(std::size_t index) {
    Slot& slot = ring_[index];
    retry("fi_recv", -1, [&] {
      return fi_recv(ep_, slot.data, keys_.eager_bytes, slot.desc, FI_ADDR_UNSPEC, &slot.context);
    });
  }

  SendRecord& new_record(int dest, Buffer&& bytes) {
    std::size_t index;
    if (!free_sends_.empty()) {
      index = free_sends_.back();
      free_sends_.pop_back();
    } else {
      index = sends_.size();
      sends_.emplace_back();
    }
    SendRecord& record = sends_[index];
    record.context = Context{{}, Op::send, index};
    record.bytes = std::move(bytes);
    record.dest = dest;
    return record;
  }

  // Sends `bytes` now if the provider takes them (after up to kSendAttempts tries, draining the
  // CQ in between), else queues them behind `dest`'s deferred messages, which progress() retries
  // in order: a peer that cannot take a message (one that died, or one that has not yet accepted
  // its connection) must not hold this rank in a loop, away from its other peers and from the
  // termination layer's hang detection.
  void submit(int dest, std::uint64_t data, Buffer&& bytes) {
    auto& queue = deferred_[static_cast<std::size_t>(dest)];
    if (queue.empty()) {
      for (int attempt = 0; attempt < kSendAttempts; ++attempt) {
        if (try_send(dest, data, bytes)) return;
        drain();
      }
      deferred_peers_.push_back(dest);
    }
    queue.push_back(Deferred{data, std::move(bytes)});
    ++deferred_count_;
  }

  void submit_deferred() {
    if (deferred_peers_.empty()) return;
    const auto now = std::chrono::steady_clock::now();
    std::size_t kept = 0;
    for (const int dest : deferred_peers_) {
      auto& queue = deferred_[static_cast<std::size_t>(dest)];
      while (!queue.empty() && try_send(dest, queue.front().data, queue.front().bytes)) {
        queue.pop_front();
        --deferred_count_;
      }
      if (queue.empty()) {
        refused_since_[static_cast<std::size_t>(dest)] = {};
        continue;
      }
      deferred_peers_[kept++] = dest;
      refused(dest, now, "every message");
    }
    deferred_peers_.resize(kept);
  }

  // One attempt; false when the provider answers FI_EAGAIN (`bytes` is then untouched). Up to the
  // provider's inject size the bytes are copied by fi_injectdata: no completion to wait for.
  bool try_send(int dest, std::uint64_t data, Buffer& bytes) {
    const auto addr = static_cast<fi_addr_t>(dest);
    if (bytes.size() <= inject_bytes_) {
      const ssize_t code = fi_injectdata(ep_, bytes.data(), bytes.size(), data, addr);
      if (code != 0) return accepted(code, "fi_injectdata", dest);
      recycle(std::move(bytes));
      return true;
    }
    SendRecord& record = new_record(dest, std::move(bytes));
    const ssize_t code = fi_senddata(ep_, record.bytes.data(), record.bytes.size(), send_desc(record.bytes), data,
                                     addr, &record.context);
    if (code == 0) {
      ++sends_in_flight_;
      return true;
    }
    bytes = std::move(record.bytes);
    free_sends_.push_back(record.context.index);
    return accepted(code, "fi_senddata", dest);
  }

  bool accepted(ssize_t code, const char* what, int dest) {
    if (code != -FI_EAGAIN) fatal("{} (peer {})", fi_error(what, code), peer_name(dest));
    return false;
  }

  // Refusals of a once-connected peer lasting the peer timeout stop the job.
  void refused(int dest, std::chrono::steady_clock::time_point now, const char* what) {
    auto& since = refused_since_[static_cast<std::size_t>(dest)];
    if (since == std::chrono::steady_clock::time_point{}) since = now;
    else if (connected_[static_cast<std::size_t>(dest)] && peer_timeout_.count() > 0 && now - since >= peer_timeout_)
      unreachable(dest, what);
  }

  // One attempt, never deferred: an idle rank must not wait on an unreachable peer.
  void send_heartbeat(int dest, std::chrono::steady_clock::time_point now) {
    Buffer empty;
    if (try_send(dest, pack(rank_, Kind::heartbeat, 0), empty)) refused_since_[static_cast<std::size_t>(dest)] = {};
    else refused(dest, now, "heartbeats");
  }

  [[noreturn]] void unreachable(int peer, const char* what) {
    fatal("{} is unreachable: libfabric refused {} to it (FI_EAGAIN) for {:g} s, as it does for a rank "
          "that died (--tessera_transport_args peer_timeout)",
          peer_name(peer), what, peer_timeout_.count());
  }

  // Reads a rendezvous payload into `into`, waiting for it.
  void read(int source, const Request& request, Buffer& into) {
    void* desc = mr_local_ ? fi_mr_desc(registrations_->get(into)) : nullptr;
    Context context{{}, Op::read, 0};
    reading_from_ = source;
    reads_pending_ = 0;
    for (std::uint64_t offset = 0; offset < request.bytes; offset += max_msg_) {
      const std::size_t chunk = static_cast<std::size_t>(std::min<std::uint64_t>(max_msg_, request.bytes - offset));
      retry("fi_read", source, [&] {
        return fi_read(ep_, into.data() + offset, chunk, desc, static_cast<fi_addr_t>(source),
                       request.address + offset, request.key, &context);
      });
      ++reads_pending_;
    }
    while (reads_pending_ != 0) drain();
  }

  // Lets MPI advance at least every kMpiInterval of progress() calls and empty probes. The
  // runtime's quiescence waves are MPI_Iallreduce on the same communicator, and Open MPI advances
  // a nonblocking collective only inside MPI calls: a rank that, once its own wave completed,
  // talks only to libfabric would leave its peers' wave unfinished forever. (The MPI transport's
  // tests do this as a side effect.) Also sends the heartbeats (see kHeartbeatAfter) on the same
  // clock read.
  void housekeeping() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_mpi_ < kMpiInterval) return;
    last_mpi_ = now;
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, detail::kMpiTransportTag, comm_, &flag, MPI_STATUS_IGNORE);
    if (heard_) {
      last_heard_ = now;
      heard_ = false;
    } else if (now - last_heard_ >= kHeartbeatAfter && now - last_heartbeat_ >= kHeartbeatAfter) {
      last_heartbeat_ = now;
      send_heartbeats(now);
    }
  }

  void send_heartbeats(std::chrono::steady_clock::time_point now) {
    int sent = 0;
    for (int i = 1; i < size_ && sent < kHeartbeatPeers; ++i) {
      next_heartbeat_ = (next_heartbeat_ + 1) % size_;
      const auto peer = static_cast<std::size_t>(next_heartbeat_);
      if (next_heartbeat_ == rank_ || !connected_[peer] || !deferred_[peer].empty()) continue;  // see submit
      send_heartbeat(next_heartbeat_, now);
      ++sent;
    }
  }

  // Runs `call` until it stops answering -FI_EAGAIN, progressing the CQ in between; a
  // once-connected peer (`peer` >= 0) refusing for the peer timeout stops the job.
  template <typename Call>
  void retry(const char* what, int peer, Call&& call) {
    for (unsigned attempt = 1;; ++attempt) {
      const ssize_t code = call();
      if (code == 0) break;
      if (code != -FI_EAGAIN)
        fatal("{}{}", fi_error(what, code), peer >= 0 ? fmt::format(" (peer {})", peer_name(peer)) : std::string());
      drain();
      if (peer >= 0 && attempt % 1024 == 0) refused(peer, std::chrono::steady_clock::now(), what);  // 1 read in 1024
    }
    if (peer >= 0) refused_since_[static_cast<std::size_t>(peer)] = {};
  }

  // Reads every available completion: sends retire their buffers, receives join their source's
  // ordered stream, `done` messages retire rendezvous buffers.
  void drain() {
    fi_cq_data_entry entries[kCqBatch];
    for (;;) {
      const ssize_t n = fi_cq_read(cq_, entries, kCqBatch);
      if (n == -FI_EAGAIN) return;
      if (n == -FI_EAVAIL) report_error();
      if (n < 0) fatal("{}", fi_error("fi_cq_read", n));
      for (ssize_t i = 0; i < n; ++i) complete(entries[i]);
      if (n < kCqBatch) return;
    }
  }

  void complete(const fi_cq_data_entry& entry) {
    const Context& context = *static_cast<const Context*>(entry.op_context);
    switch (context.op) {
      case Op::send: {
        SendRecord& record = sends_[context.index];
        connected_[static_cast<std::size_t>(record.dest)] = true;
        recycle(std::move(record.bytes));
        free_sends_.push_back(context.index);
        --sends_in_flight_;
        return;
      }
      case Op::read:
        --reads_pending_;
        return;
      case Op::recv:
        break;
    }
    const int source = static_cast<int>(entry.data >> kRankShift);
    connected_[static_cast<std::size_t>(source)] = true;
    const auto kind = static_cast<Kind>((entry.data >> kKindShift) & 3);
    if (kind == Kind::heartbeat) {  // not heard: a peer's heartbeat must not silence this rank's
      post(context.index);
      return;
    }
    heard_ = true;
    if (kind == Kind::done) {
      std::uint64_t id = 0;
      std::memcpy(&id, ring_[context.index].data, sizeof id);
      post(context.index);
      auto it = rendezvous_.find(id);
      if (it != rendezvous_.end()) {
        recycle(std::move(it->second));
        rendezvous_.erase(it);
      }
      return;
    }
    const Arrival arrival{source, kind, context.index, entry.len};
    const std::uint64_t seq = entry.data & kSeqMask;
    std::uint64_t& expected = expected_[static_cast<std::size_t>(source)];
    auto& early = early_[static_cast<std::size_t>(source)];
    if (seq != (expected & kSeqMask)) {
      early.emplace(seq, arrival);  // ahead of its turn: the provider completed out of order
      return;
    }
    ready_.push_back(arrival);
    ++expected;
    for (auto next = early.find(expected & kSeqMask); next != early.end(); next = early.find(expected & kSeqMask)) {
      ready_.push_back(next->second);
      early.erase(next);
      ++expected;
    }
  }

  [[noreturn]] void report_error() {
    fi_cq_err_entry error{};
    fi_cq_readerr(cq_, &error, 0);
    std::string op = "a completion";
    std::string peer = "an unknown rank";
    if (error.op_context != nullptr) {
      const Context& context = *static_cast<const Context*>(error.op_context);
      if (context.op == Op::send) {
        op = "a send";
        peer = peer_name(sends_[context.index].dest);
      } else if (context.op == Op::read) {
        op = "a rendezvous read";
        peer = peer_name(reading_from_);
      } else {
        op = "a receive";
        if (error.flags & FI_REMOTE_CQ_DATA) peer = peer_name(static_cast<int>(error.data >> kRankShift));
      }
    }
    fatal("libfabric error in {} with {}: {} ({})", op, peer, detail::ofi_library().strerror(error.err),
          fi_cq_strerror(cq_, error.prov_errno, error.err_data, nullptr, 0));
  }

  MPI_Comm comm_;
  TransportOptions options_;
  OfiKeys keys_;
  fi_info* info_;
  int rank_ = 0;
  int size_ = 1;
  bool mr_local_ = false;
  bool virt_addr_ = false;
  std::uint64_t max_msg_ = 0;
  std::size_t inject_bytes_ = 0;  // the provider's inject_size: sent by fi_injectdata
  fid_fabric* fabric_ = nullptr;
  fid_domain* domain_ = nullptr;
  fid_cq* cq_ = nullptr;
  fid_av* av_ = nullptr;
  fid_ep* ep_ = nullptr;
  std::vector<Slot> ring_;
  std::deque<Arrival> ready_;                                   // delivered in this order
  std::vector<std::uint64_t> expected_;                         // by source: next sequence number
  std::vector<std::map<std::uint64_t, Arrival>> early_;         // by source: out-of-order arrivals
  std::vector<std::uint64_t> next_seq_;                         // by destination
  std::deque<SendRecord> sends_;                                // stable addresses: contexts point in
  std::vector<std::size_t> free_sends_;
  std::size_t sends_in_flight_ = 0;
  std::unordered_map<std::uint64_t, Buffer> rendezvous_;        // by id: payloads a peer will read
  std::uint64_t next_id_ = 0;
  std::size_t reads_pending_ = 0;
  int reading_from_ = -1;
  std::chrono::steady_clock::time_point last_mpi_{};
  std::chrono::steady_clock::time_point last_heard_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_heartbeat_{};
  bool heard_ = false;  // a message arrived since the last housekeeping
  int next_heartbeat_ = 0;  // the rotation's last peer
  std::vector<std::chrono::steady_clock::time_point> refused_since_;  // by peer: heartbeats refused since
  std::chrono::duration<double> peer_timeout_;
  std::vector<std::string> hosts_;  // by rank: its host name (gethostname)
  std::vector<bool> connected_;  // by peer: a message has gone to it or come from it
  std::vector<std::deque<Deferred>> deferred_;  // by destination: refused messages, in order
  std::vector<int> deferred_peers_;             // destinations with deferred messages
  std::size_t deferred_count_ = 0;
  std::unique_ptr<OfiRegistrations> registrations_;  // after open_endpoint: needs the domain
  detail::BufferPool pool_;
};

}  // namespace

TransportEntry detail::ofi_transport_entry() {
  return {"ofi", "libfabric FI_EP_RDM endpoints, addresses exchanged over MPI (runtime/README.md, \"libfabric (ofi) transport\")",
          ofi_keys(),
          [](MPI_Comm comm, const TransportOptions& options, const Args& args) -> std::unique_ptr<Transport> {
            const OfiKeys keys = ofi_keys_of(args);
            if (keys.eager_bytes < sizeof(Request))
              throw Error(fmt::format("--tessera_transport_args (ofi): eager_bytes={} is invalid: at least {} bytes",
                                      keys.eager_bytes, sizeof(Request)));
            OfiSetup setup = select_provider(comm, keys.provider);  // collective; throws on every rank
            return std::make_unique<OfiTransport>(comm, setup, options, keys);
          }};
}

}  // namespace tessera
