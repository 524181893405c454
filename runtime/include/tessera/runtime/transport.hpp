#pragma once
/// The transport: moves opaque byte messages between ranks.
///
/// Everything above (active messages, collectives, termination) talks to this interface only,
/// so another network backend (libfabric) can be added without touching message code. A
/// transport is used by one thread (the rank's progress thread).
#include <tessera/runtime/buffer.hpp>

#include <cstddef>
#include <memory>

namespace tessera {

/// One received message: its source rank and its bytes (envelope included).
struct Incoming {
  int source = -1;
  Buffer bytes;
};

class Transport {
 public:
  virtual ~Transport() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;

  /// Starts sending `bytes` to `dest` (0 <= dest < size(), checked by the caller). The
  /// transport owns the buffer until the send completes; any size is allowed.
  virtual void send(int dest, Buffer&& bytes) = 0;

  /// Receives one waiting message into `out`, if any. Never blocks.
  virtual bool poll(Incoming& out) = 0;

  /// True when a message is waiting to be received. Never blocks.
  virtual bool probe() = 0;

  /// Advances outstanding sends; returns the number still in flight.
  virtual std::size_t progress() = 0;

  /// A buffer with room for at least `capacity` bytes, from the pool when small.
  virtual Buffer acquire(std::size_t capacity) = 0;

  /// Gives a buffer whose message has been handled back for reuse.
  virtual void recycle(Buffer&& bytes) = 0;
};

/// The MPI tag of every active message on Tessera's communicator.
inline constexpr int kMpiTransportTag = 7001;

struct MpiTransportOptions {
  /// Size of each pre-posted receive; a batch larger than this travels as a header plus a
  /// separately received payload. Keep it at least the coalescing threshold.
  std::size_t eager_bytes = 65536;
  /// Buffers larger than eager_bytes kept after their send or receive completes, for reuse by
  /// the next large message of a similar size, in total bytes. Freshly allocated memory costs a
  /// page fault per 4 KiB page on first touch, more than copying into a mapped page.
  std::size_t large_pool_bytes = std::size_t{64} << 20;
  /// Messages above this many bytes use a derived datatype instead of an int count; lowered
  /// only by tests, to exercise that path without allocating gigabytes.
  std::size_t max_int_count = 0x7fffffff;
};

/// The MPI backend. `comm` must stay valid for the transport's life (the runtime's duplicate).
std::unique_ptr<Transport> make_mpi_transport(void* mpi_comm, MpiTransportOptions options = {});

}  // namespace tessera
