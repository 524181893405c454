// MPI implementation of Transport.
//
// Receives use MPI_Improbe + MPI_Mrecv on one tag: matched probes are safe if another layer of
// the same process ever probes too, and the probe tells the size before the buffer is taken.
// Sends are MPI_Isend from a buffer the transport owns until MPI_Testsome says it completed.
// Counts above INT_MAX go through a struct datatype of 1 GiB blocks plus a remainder.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>

#include <mpi.h>

#include <vector>

namespace tessera {
namespace {

constexpr int kTag = kMpiTransportTag;
constexpr std::size_t kPooledCapacity = 64 * 1024;
constexpr std::size_t kPoolLimit = 64;

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
  }

  ~MpiTransport() override {
    while (progress() != 0) {
    }
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void send(int dest, Buffer&& bytes) override {
    MPI_Request request;
    if (bytes.size() <= options_.max_int_count) {
      MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, dest, kTag, comm_, &request);
    } else {
      LargeType type(bytes.size(), block_size());
      MPI_Isend(bytes.data(), 1, type.get(), dest, kTag, comm_, &request);
    }
    // Not tested here: the scheduler's turn ends with progress(), which retires it.
    pending_requests_.push_back(request);
    pending_buffers_.push_back(std::move(bytes));
  }

  bool poll(Incoming& out) override {
    int found = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, kTag, comm_, &found, &message, &status);
    if (!found) return false;
    MPI_Count count = 0;
    MPI_Get_elements_x(&status, MPI_BYTE, &count);
    const auto bytes = static_cast<std::size_t>(count);
    out.source = status.MPI_SOURCE;
    out.bytes = acquire(bytes);
    out.bytes.resize(bytes);
    if (bytes <= options_.max_int_count) {
      MPI_Mrecv(out.bytes.data(), static_cast<int>(bytes), MPI_BYTE, &message, MPI_STATUS_IGNORE);
    } else {
      LargeType type(bytes, block_size());
      MPI_Mrecv(out.bytes.data(), 1, type.get(), &message, MPI_STATUS_IGNORE);
    }
    return true;
  }

  bool probe() override {
    int found = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kTag, comm_, &found, MPI_STATUS_IGNORE);
    return found != 0;
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

  void recycle(Buffer&& bytes) override {
    if (bytes.capacity() == kPooledCapacity && pool_.size() < kPoolLimit) {
      bytes.clear();
      pool_.push_back(std::move(bytes));
    }
  }

 private:
  std::size_t block_size() const {
    return std::min<std::size_t>(options_.max_int_count, std::size_t{1} << 30);
  }

  Buffer acquire(std::size_t bytes) override {
    if (bytes <= kPooledCapacity) {
      if (!pool_.empty()) {
        Buffer b = std::move(pool_.back());
        pool_.pop_back();
        return b;
      }
      return Buffer(kPooledCapacity);
    }
    return Buffer(bytes);
  }

  MPI_Comm comm_;
  MpiTransportOptions options_;
  int rank_ = 0;
  int size_ = 1;
  std::vector<MPI_Request> pending_requests_;
  std::vector<Buffer> pending_buffers_;
  std::vector<int> indices_;
  std::vector<Buffer> pool_;
};

}  // namespace

std::unique_ptr<Transport> make_mpi_transport(void* mpi_comm, MpiTransportOptions options) {
  return std::make_unique<MpiTransport>(*static_cast<MPI_Comm*>(mpi_comm), options);
}

}  // namespace tessera
