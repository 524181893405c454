#pragma once
/// The transport: moves opaque byte messages between ranks.
///
/// Everything above (active messages, collectives, termination) talks to this interface only,
/// so another network backend (libfabric) can be added without touching message code. A
/// transport is used by one thread (the rank's progress thread).
#include <tessera/runtime/buffer.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace tessera {

namespace detail {
struct ReceiveTokens;
}  // namespace detail

/// What a transport needs back at release() to free one received message: where its bytes live
/// (a slot of its receive ring) or the buffer it received them into. Opaque outside the
/// transports, which reach it through detail::ReceiveTokens.
class ReceiveToken {
 private:
  friend struct detail::ReceiveTokens;
  std::int64_t slot_ = -1;
  Buffer owned_;
};

/// One received message: its source rank and its bytes (envelope included). The bytes belong to
/// the transport and stay valid until the message is given back with release().
struct Incoming {
  int source = -1;
  std::span<const std::byte> bytes;
  ReceiveToken token;
};

namespace detail {
/// The transports' access to their tokens: a slot index (-1: none) and an owned buffer.
struct ReceiveTokens {
  static std::int64_t& slot(ReceiveToken& token) { return token.slot_; }
  static Buffer& owned(ReceiveToken& token) { return token.owned_; }
};
}  // namespace detail

class Transport {
 public:
  virtual ~Transport() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;

  /// Starts sending `bytes` to `dest` (0 <= dest < size(), checked by the caller). The
  /// transport owns the buffer until the send completes; any size is allowed.
  virtual void send(int dest, Buffer&& bytes) = 0;

  /// Receives one waiting message into `out`, if any. Never blocks. Messages can be held while
  /// more are polled (a handler that runs the scheduler), but a transport holds a bounded number
  /// (the MPI transport: its ring of receives); past that, poll() returns false until one is
  /// released.
  virtual bool poll(Incoming& out) = 0;

  /// Gives a polled message's bytes back to the transport.
  virtual void release(Incoming&& in) = 0;

  /// True when a message is waiting to be received. Never blocks.
  virtual bool probe() = 0;

  /// Spins on the network for up to `tries` tests while nothing else needs the rank; true once a
  /// message is waiting (poll() then takes it). What an idle rank does instead of whole empty
  /// scheduler turns, so it notices a message as soon as a blocking MPI_Recv would.
  virtual bool await(int tries) = 0;

  /// Advances outstanding sends; returns the number still in flight.
  virtual std::size_t progress() = 0;

  /// A buffer with room for at least `capacity` bytes, from the pool when small.
  virtual Buffer acquire(std::size_t capacity) = 0;

  /// Gives a buffer whose message has been handled back for reuse.
  virtual void recycle(Buffer&& bytes) = 0;

  /// Room for one message of up to `capacity` bytes to `dest` that the caller fills in place and
  /// hands over with commit(dest, size), or nullptr when this transport has none to offer now (the
  /// caller then fills a buffer and calls send()). Between ranks of one node it is the receiver's
  /// ring, so a large message is encoded where the receiver reads it instead of being copied
  /// there. Nothing may be sent to `dest` between reserve and commit; a reservation not committed
  /// is dropped.
  virtual std::byte* reserve(int /*dest*/, std::size_t /*capacity*/) { return nullptr; }

  /// Sends the `size` bytes (at most the capacity reserved) written at reserve(dest, ...).
  virtual void commit(int /*dest*/, std::size_t /*size*/) {}

  /// What carries the traffic, in the network's own terms, for reports: the libfabric provider
  /// ("tcp;ofi_rxm") with ofi, empty over MPI. A layered transport reports the network's.
  virtual std::string description() const { return {}; }
};

/// What the runtime hands every network transport, beside the transport's own keys
/// (transport_registry.hpp): which network, the node's shared-memory rings in front of it, and the
/// buffer pooling all network transports share (runtime/src/buffer_pool.hpp).
struct TransportOptions {
  /// The network between ranks (`--tessera_transport`): a name in TransportRegistry::builtin().
  std::string network = "mpi";
  /// Its keys (`--tessera_transport_args`), `"key=value ..."`, checked against the transport's list.
  std::string network_args;
  /// Ranks of one node exchange batches through shared-memory rings instead of the network
  /// (`--tessera_shm`); see make_transport().
  bool shared_memory = true;
  /// Bytes of each shared-memory ring (one per ordered pair of ranks on a node); 0 lets the node's
  /// rings share 64 MiB, up to 16 MiB per ring and never under 64 KiB. Batches above a quarter
  /// of it go through the network.
  std::size_t ring_bytes = 0;
  /// Capacity of the pooled buffers that outgoing batches are packed into (a batch that outgrows
  /// one grows on its own and is pooled with the large buffers). Keep it above the coalescing
  /// threshold.
  std::size_t pool_bytes = 32768;
  /// Buffers larger than pool_bytes kept after their send or receive completes, for reuse by
  /// the next large message of a similar size, in total bytes.
  std::size_t large_pool_bytes = std::size_t{64} << 20;
  /// mpi: messages above this many bytes use a derived datatype instead of an int count; lowered
  /// only by tests, to exercise that path without allocating gigabytes.
  std::size_t max_int_count = 0x7fffffff;
};

/// The runtime's transport, composed in one place (transport_stack.cpp): the network transport
/// `options.network` names (registered in transport_registry.hpp, with `options.network_args` as
/// its keys); with `options.shared_memory` and more than one rank of `comm` on this node,
/// shared-memory rings between the node's ranks in front of it (node_transport.cpp; per-pair order
/// holds across both paths); in a build with fault injection (tests only), the faults the
/// environment asks for around both. Collective over `comm`, and so is destroying it. Throws
/// tessera::Error, on every rank alike, for an unknown network, a bad key, a ring size below 4096
/// bytes or not a multiple of 64, or what the network transport's set-up refuses.
std::unique_ptr<Transport> make_transport(MPI_Comm comm, TransportOptions options = {});

}  // namespace tessera
