// MPI implementation of Transport.
//
// Receives: a ring of receives is kept posted on the eager tag, each into a buffer of
// `eager_bytes`. MPI matches arrivals to posted receives in the order they were posted, so
// testing only the oldest one delivers messages in arrival order (per-pair FIFO, as MPI gives),
// and a message lands straight in our buffer: no probe, no copy out of MPI's unexpected queue.
// A message larger than `eager_bytes` is announced by a 16-byte header in the same ordered
// stream; on reaching the header the receiver takes the payload, which follows on the bulk tag,
// with a matching MPI_Recv (the sender has already posted it, so this cannot wait on the peer).
// Counts above INT_MAX use a struct datatype of 1 GiB blocks plus a remainder.
//
// Sends: MPI_Isend from a buffer the transport owns until MPI_Testsome says it completed.
//
// Buffers: eager-sized ones are pooled by count; larger ones (bulk payloads, and large records
// that layers above pack in place) are pooled up to `large_pool_bytes` and handed out best fit,
// so repeated large messages (migrations of large elements) reuse mapped pages instead of
// faulting in fresh ones on both sides.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>

#include <mpi.h>

#include <map>
#include <vector>

namespace tessera {
namespace {

constexpr int kEagerTag = kMpiTransportTag;
constexpr int kBulkTag = kMpiTransportTag + 1;
constexpr std::size_t kRing = 8;
constexpr std::size_t kPoolLimit = 64;
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
  MpiTransport(MPI_Comm comm, MpiTransportOptions options) : comm_(comm), options_(options) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    ring_.resize(kRing);
    for (Posted& posted : ring_) post(posted);
  }

  ~MpiTransport() override {
    while (progress() != 0) {
    }
    for (Posted& posted : ring_) {
      MPI_Cancel(&posted.request);
      MPI_Wait(&posted.request, MPI_STATUS_IGNORE);
    }
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void send(int dest, Buffer&& bytes) override {
    if (bytes.size() <= options_.eager_bytes) {
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
    Posted& head = ring_[head_];
    int done = 0;
    MPI_Status status;
    MPI_Test(&head.request, &done, &status);
    if (!done) return false;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    out.source = status.MPI_SOURCE;
    BulkHeader header;
    if (static_cast<std::size_t>(count) == sizeof header) std::memcpy(&header, head.buffer.data(), sizeof header);
    if (static_cast<std::size_t>(count) == sizeof header && header.marker == kBulkMarker) {
      out.bytes = acquire(header.bytes);
      out.bytes.resize(header.bytes);
      receive_bulk(out.source, out.bytes);
    } else {
      out.bytes = std::move(head.buffer);
      out.bytes.resize(static_cast<std::size_t>(count));
    }
    post(head);
    head_ = (head_ + 1) % ring_.size();
    return true;
  }

  bool probe() override {
    int done = 0;
    MPI_Request_get_status(ring_[head_].request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  }

  std::size_t progress() override {
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

  Buffer acquire(std::size_t bytes) override {
    if (bytes <= options_.eager_bytes) {
      if (!pool_.empty()) {
        Buffer b = std::move(pool_.back());
        pool_.pop_back();
        return b;
      }
      return Buffer(options_.eager_bytes);
    }
    // Best fit, but never a buffer more than twice the request: that memory is better kept for
    // a message of its own size.
    auto fit = large_pool_.lower_bound(bytes);
    if (fit != large_pool_.end() && fit->first / 2 <= bytes) {
      Buffer b = std::move(fit->second);
      large_pool_bytes_ -= fit->first;
      large_pool_.erase(fit);
      return b;
    }
    return Buffer(bytes);
  }

  void recycle(Buffer&& bytes) override {
    const std::size_t capacity = bytes.capacity();
    bytes.clear();
    if (capacity == options_.eager_bytes) {
      if (pool_.size() < kPoolLimit) pool_.push_back(std::move(bytes));
    } else if (capacity > options_.eager_bytes && large_pool_bytes_ + capacity <= options_.large_pool_bytes) {
      large_pool_bytes_ += capacity;
      large_pool_.emplace(capacity, std::move(bytes));
    }
  }

 private:
  struct Posted {
    MPI_Request request = MPI_REQUEST_NULL;
    Buffer buffer;
  };

  void post(Posted& posted) {
    if (posted.buffer.capacity() != options_.eager_bytes) posted.buffer = acquire(options_.eager_bytes);
    MPI_Irecv(posted.buffer.data(), static_cast<int>(options_.eager_bytes), MPI_BYTE, MPI_ANY_SOURCE, kEagerTag,
              comm_, &posted.request);
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
  MpiTransportOptions options_;
  int rank_ = 0;
  int size_ = 1;
  std::vector<Posted> ring_;
  std::size_t head_ = 0;
  std::vector<MPI_Request> pending_requests_;
  std::vector<Buffer> pending_buffers_;
  std::vector<int> indices_;
  std::vector<Buffer> pool_;
  std::multimap<std::size_t, Buffer> large_pool_;  // by capacity
  std::size_t large_pool_bytes_ = 0;
};

}  // namespace

std::unique_ptr<Transport> make_mpi_transport(void* mpi_comm, MpiTransportOptions options) {
  if (options.eager_bytes < 64) throw Error("the transport's eager size must be at least 64 bytes");
  return std::make_unique<MpiTransport>(*static_cast<MPI_Comm*>(mpi_comm), options);
}

}  // namespace tessera
