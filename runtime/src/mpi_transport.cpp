// MPI implementation of Transport.
//
// Receives: a ring of persistent receives (MPI_Recv_init, restarted with MPI_Start, which is
// cheaper than a fresh MPI_Irecv) is kept posted on the eager tag, each into its own buffer of
// `eager_bytes`. MPI matches arrivals to posted receives in the order they were posted, so testing
// only the oldest one delivers messages in arrival order (per-pair FIFO, as MPI gives), and a
// message lands straight in the slot's buffer, where the runtime reads it: no probe, no copy.
// A slot is restarted once its message has been released, in ring order, so MPI's posted order
// stays the ring's order; restarting waits for progress() (or an idle await()), so it is never
// between a message and the reply its handler sends, nor between two polls of one turn.
// A message larger than `eager_bytes` is announced by a 16-byte header in the same ordered
// stream; on reaching the header the receiver takes the payload, which follows on the bulk tag,
// with a matching MPI_Recv (the sender has already posted it, so this cannot wait on the peer),
// into a pooled large buffer. Counts above INT_MAX use a struct datatype of
// 1 GiB blocks plus a remainder.
//
// Sends: MPI_Isend from a buffer the transport owns until MPI_Testsome says it completed.
//
// Buffers come from the pool every network transport shares (buffer_pool.hpp), so repeated large
// messages (migrations of large elements) reuse mapped pages instead of faulting in fresh ones on
// both sides.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>

#include "buffer_pool.hpp"
#include "transports.hpp"

#include <mpi.h>

#include <map>
#include <vector>

namespace tessera {
namespace {

constexpr int kEagerTag = detail::kMpiTransportTag;
constexpr int kBulkTag = detail::kMpiTransportTag + 1;
constexpr std::size_t kRing = 8;
constexpr std::size_t kSlotStagger = 17 * 64;  // bytes: 17 cache lines, coprime with any set count
constexpr std::uint64_t kBulkMarker = ~std::uint64_t{0};  // never a record length

struct BulkHeader {
  std::uint64_t marker = kBulkMarker;
  std::uint64_t bytes = 0;
};

// A datatype describing `bytes` contiguous bytes, for counts beyond an int.
class LargeType {
 public:
  LargeType(std::size_t bytes, std::size_t block) {
    MPI_Datatype block_type;
    MPI_Type_contiguous(static_cast<int>(block), MPI_BYTE, &block_type);
    const int blocks = static_cast<int>(bytes / block);
    const int rest = static_cast<int>(bytes % block);
    int lengths[2] = {blocks, rest};
    MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(static_cast<std::size_t>(blocks) * block)};
    MPI_Datatype types[2] = {block_type, MPI_BYTE};
    MPI_Type_create_struct(2, lengths, displacements, types, &type_);
    MPI_Type_commit(&type_);
    MPI_Type_free(&block_type);
  }
  ~LargeType() { MPI_Type_free(&type_); }
  LargeType(const LargeType&) = delete;
  LargeType& operator=(const LargeType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_;
};

class MpiTransport final : public Transport {
 public:
  MpiTransport(MPI_Comm comm, const TransportOptions& options, std::size_t eager_bytes)
      : comm_(comm), options_(options), eager_bytes_(eager_bytes), ring_(kRing),
        pool_(options.pool_bytes, options.large_pool_bytes) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    for (Slot& slot : ring_) {
      // Slots start at staggered offsets: at a power-of-two stride their first lines would all
      // fall in the same cache sets, and every small message would land on a conflict miss.
      const std::size_t stagger = kSlotStagger * static_cast<std::size_t>(&slot - ring_.data());
      slot.buffer = Buffer(eager_bytes_ + stagger);
      slot.data = slot.buffer.data() + stagger;
      MPI_Recv_init(slot.data, static_cast<int>(eager_bytes_), MPI_BYTE, MPI_ANY_SOURCE, kEagerTag, comm_,
                    &slot.request);
      MPI_Start(&slot.request);
    }
  }

  ~MpiTransport() override {
    while (progress() != 0) {
    }
    for (Slot& slot : ring_) {
      if (slot.state == Slot::State::posted) {
        MPI_Cancel(&slot.request);
        MPI_Wait(&slot.request, MPI_STATUS_IGNORE);
      }
      MPI_Request_free(&slot.request);
    }
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void send(int dest, Buffer&& bytes) override {
    if (bytes.size() <= eager_bytes_) {
      isend(dest, kEagerTag, std::move(bytes));
      return;
    }
    Buffer header = acquire(sizeof(BulkHeader));
    const BulkHeader announce{kBulkMarker, bytes.size()};
    header.append(&announce, sizeof announce);
    isend(dest, kBulkTag, std::move(bytes));  // posted first: the receiver may wait on it at once
    isend(dest, kEagerTag, std::move(header));
  }

  bool poll(Incoming& out) override {
    if (!test_head(false)) return false;
    Slot& head = ring_[head_];
    MPI_Status& status = head_status_;
    head_done_ = false;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    out.source = status.MPI_SOURCE;
    BulkHeader header;
    if (static_cast<std::size_t>(count) == sizeof header) std::memcpy(&header, head.data, sizeof header);
    if (static_cast<std::size_t>(count) == sizeof header && header.marker == kBulkMarker) {
      detail::ReceiveTokens::owned(out.token) = acquire(header.bytes);
      detail::ReceiveTokens::owned(out.token).resize(header.bytes);
      receive_bulk(out.source, detail::ReceiveTokens::owned(out.token));
      out.bytes = detail::ReceiveTokens::owned(out.token).view();
      detail::ReceiveTokens::slot(out.token) = -1;
      head.state = Slot::State::released;  // the header has been read
    } else {
      out.bytes = std::span<const std::byte>(head.data, static_cast<std::size_t>(count));
      detail::ReceiveTokens::slot(out.token) = static_cast<int>(head_);
      head.state = Slot::State::held;
    }
    head_ = (head_ + 1) % ring_.size();
    ++consumed_;
    return true;
  }

  void release(Incoming&& in) override {
    if (detail::ReceiveTokens::slot(in.token) >= 0) {
      ring_[static_cast<std::size_t>(detail::ReceiveTokens::slot(in.token))].state = Slot::State::released;
    } else if (detail::ReceiveTokens::owned(in.token).capacity() != 0) {
      recycle(std::move(detail::ReceiveTokens::owned(in.token)));
    }
    in.bytes = {};
    detail::ReceiveTokens::slot(in.token) = -1;
  }

  bool probe() override { return test_head(); }

  bool await(int tries) override {
    for (int i = 0; i < tries; ++i)
      if (test_head()) return true;
    return false;
  }

  std::size_t progress() override {
    restart_released();
    if (pending_requests_.empty()) return 0;
    int completed = 0;
    indices_.resize(pending_requests_.size());
    MPI_Testsome(static_cast<int>(pending_requests_.size()), pending_requests_.data(), &completed,
                 indices_.data(), MPI_STATUSES_IGNORE);
    if (completed > 0 && completed != MPI_UNDEFINED) {
      // Compact: drop completed requests (now MPI_REQUEST_NULL) with their buffers.
      std::size_t kept = 0;
      for (std::size_t i = 0; i < pending_requests_.size(); ++i) {
        if (pending_requests_[i] == MPI_REQUEST_NULL) {
          recycle(std::move(pending_buffers_[i]));
          continue;
        }
        if (kept != i) {
          pending_requests_[kept] = pending_requests_[i];
          pending_buffers_[kept] = std::move(pending_buffers_[i]);
        }
        ++kept;
      }
      pending_requests_.resize(kept);
      pending_buffers_.resize(kept);
    }
    return pending_requests_.size();
  }

  Buffer acquire(std::size_t bytes) override { return pool_.acquire(bytes); }

  void recycle(Buffer&& bytes) override { pool_.keep(bytes); }

 private:
  struct Slot {
    enum class State { posted, held, released };
    MPI_Request request = MPI_REQUEST_NULL;  // persistent
    std::byte* data = nullptr;               // where messages land, inside buffer
    Buffer buffer;
    State state = State::posted;
  };

  // Whether the head slot's message has arrived. A completed test is remembered (a persistent
  // request's status can be read only once), so probe() and await() do not lose it for poll().
  bool test_head(bool restart = true) {
    if (head_done_) return true;
    if (restart) restart_released();
    Slot& head = ring_[head_];
    if (head.state != Slot::State::posted) return false;  // every slot is held by the runtime
    int done = 0;
    MPI_Test(&head.request, &done, &head_status_);
    head_done_ = done != 0;
    return head_done_;
  }

  // Restarts consumed slots, oldest first (they are the consumed_ slots before head_), up to the
  // first one the runtime still holds.
  void restart_released() {
    while (consumed_ > 0) {
      Slot& oldest = ring_[(head_ + ring_.size() - consumed_) % ring_.size()];
      if (oldest.state != Slot::State::released) return;
      oldest.state = Slot::State::posted;
      MPI_Start(&oldest.request);
      --consumed_;
    }
  }

  void isend(int dest, int tag, Buffer&& bytes) {
    MPI_Request request;
    if (bytes.size() <= options_.max_int_count) {
      MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, dest, tag, comm_, &request);
    } else {
      LargeType type(bytes.size(), block_size());
      MPI_Isend(bytes.data(), 1, type.get(), dest, tag, comm_, &request);
    }
    // Not tested here: the scheduler's turn ends with progress(), which retires it.
    pending_requests_.push_back(request);
    pending_buffers_.push_back(std::move(bytes));
  }

  void receive_bulk(int source, Buffer& into) {
    if (into.size() <= options_.max_int_count) {
      MPI_Recv(into.data(), static_cast<int>(into.size()), MPI_BYTE, source, kBulkTag, comm_, MPI_STATUS_IGNORE);
    } else {
      LargeType type(into.size(), block_size());
      MPI_Recv(into.data(), 1, type.get(), source, kBulkTag, comm_, MPI_STATUS_IGNORE);
    }
  }

  std::size_t block_size() const { return std::min<std::size_t>(options_.max_int_count, std::size_t{1} << 30); }

  MPI_Comm comm_;
  TransportOptions options_;
  std::size_t eager_bytes_;  // the size of each pre-posted receive (key eager_bytes)
  int rank_ = 0;
  int size_ = 1;
  std::vector<Slot> ring_;
  std::size_t head_ = 0;      // the oldest posted slot: the next message lands there
  bool head_done_ = false;    // the head slot's receive has completed; poll() has not taken it
  MPI_Status head_status_;
  std::size_t consumed_ = 0;  // slots taken by poll() and not yet restarted: the ones before head_
  std::vector<MPI_Request> pending_requests_;
  std::vector<Buffer> pending_buffers_;
  std::vector<int> indices_;
  detail::BufferPool pool_;
};

}  // namespace

TransportEntry detail::mpi_transport_entry() {
  return {"mpi",
          "MPI point-to-point on Tessera's communicator: whatever your MPI uses between nodes",
          {integer_key("eager_bytes", "262144",
                       "size of each pre-posted receive; a larger batch travels as a header and a payload "
                       "received separately (keep it at least --tessera_coalesce_bytes)",
                       64, 1 << 30)},
          [](MPI_Comm comm, const TransportOptions& options, const Args& keys) -> std::unique_ptr<Transport> {
            return std::make_unique<MpiTransport>(comm, options,
                                                  static_cast<std::size_t>(keys.integer("eager_bytes")));
          }};
}

}  // namespace tessera
