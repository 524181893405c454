#pragma once
/// A rank's outgoing messages: one batch per destination, packed in place, flushed to the
/// transport, and every send counted once.
///
/// A batch is a sequence of records, each a 64-bit length followed by the envelope and the
/// arguments. A record is packed straight into its destination's batch; the batch leaves as one
/// transport message when it holds `coalesce_bytes` or when the scheduler flushes at the end of a
/// turn (Runtime::progress). Records for this rank go to a local queue that the next turn
/// delivers, so a handler never runs inside the send that queued it.
///
/// Large records (migrated states, big payloads) can instead leave as transport messages of
/// their own (`send_whole`), or be encoded straight into the receiver's shared-memory ring
/// (`send_encoded`), which saves a copy. Either way what was queued for the destination before
/// leaves first, so each pair of ranks keeps its order.
///
/// Counting: every record is counted once, where it is closed (`total_sent`, what quiescence
/// detection balances); records without Envelope::kSystem are also counted as `counted_sent` and
/// shown to the message observer (the termination layer) before they can be delivered.
///
/// Not thread-safe: one per runtime, used by the thread that runs the scheduler.
#include <tessera/runtime/buffer.hpp>
#include <tessera/runtime/envelope.hpp>
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/handler_traits.hpp>
#include <tessera/runtime/trace.hpp>
#include <tessera/runtime/transport.hpp>

#include <cstdint>
#include <cstring>
#include <deque>
#include <span>
#include <vector>

namespace tessera {

/// Watches every counted message (not kSystem ones); the termination layer installs one.
class MessageObserver {
 public:
  virtual ~MessageObserver() = default;
  /// A message of `envelope.epoch` is about to leave for `dest` (also when dest is this rank).
  virtual void on_send(const Envelope& envelope, int dest) = 0;
  /// A message from `source` is about to run its handler.
  virtual void on_deliver(const Envelope& envelope, int source) = 0;
  /// Its handler has returned.
  virtual void on_delivered(const Envelope& envelope, int source) = 0;
};

namespace detail {

class Outbox {
 public:
  /// Bytes at the front of a record that the outbox fills in: the record's 64-bit length and its
  /// envelope.
  static constexpr std::size_t kRecordHeaderBytes = sizeof(std::uint64_t) + sizeof(Envelope);

  /// Sends nothing until attached: the runtime holds its outbox by value (no indirection on the
  /// send path) and attaches it once the transport exists.
  Outbox() = default;
  /// `transport` must outlive every later send; `ranks` is the communicator's size. May be called
  /// again with another transport when nothing is queued (a rescale).
  void attach(Transport& transport, int rank, int ranks, std::size_t coalesce_bytes) {
    transport_ = &transport;
    rank_ = rank;
    coalesce_bytes_ = coalesce_bytes;
    // Attached again after a rescale, at quiescence: every batch is empty, and the old
    // transport's buffers go with it.
    batches_.clear();
    unflushed_.clear();
    local_batches_.clear();
    batches_.resize(static_cast<std::size_t>(ranks));
  }

  /// Packs handler F's arguments behind `envelope` into `dest`'s batch.
  template <auto F, class... A>
  void pack(int dest, const Envelope& envelope, A&&... args) {
    using params = typename handler_traits<decltype(F)>::params;
    using encoder = Encoder<params>;
    // Room for the whole record up front: a large one then takes a pooled buffer of its size
    // instead of growing a small batch (a fresh allocation and a copy).
    Buffer& batch = open(dest, sizeof(std::uint64_t) + sizeof(Envelope) + encoder::size_hint(args...));
    const std::size_t start = batch.size();
    batch.grow(sizeof(std::uint64_t));
    batch.append(&envelope, sizeof envelope);
    encoder::encode(batch, std::forward<A>(args)...);
    close(dest, batch, start, envelope);
  }

  /// Copies a received record (envelope and arguments, without its length) into `dest`'s batch:
  /// a broadcast forwarded down the spanning tree.
  void copy_record(int dest, std::span<const std::byte> record);

  /// An empty record for send_whole: its size is kRecordHeaderBytes (room the outbox fills in)
  /// and it has room for `payload_bytes` more without growing. Large buffers come from the
  /// transport's pool, so the pages are usually mapped already.
  Buffer record_buffer(std::size_t payload_bytes) {
    Buffer record = transport_->acquire(kRecordHeaderBytes + payload_bytes);
    record.resize(kRecordHeaderBytes);
    return record;
  }

  /// Sends `record` (its payload after the first kRecordHeaderBytes) as its own transport
  /// message, after everything already queued for `dest`, uncopied. A record shorter than its
  /// header is fatal.
  void send_whole(int dest, const Envelope& envelope, Buffer&& record);

  /// send_whole for a record whose payload `encode(Buffer&)` appends; `payload_bytes` is its
  /// exact size or a lower bound. Where the transport offers room at `dest` in place
  /// (Transport::reserve: the receiver's ring on the same node) the payload is encoded there.
  template <class Encode>
  void send_encoded(int dest, const Envelope& envelope, std::size_t payload_bytes, Encode&& encode) {
    if (dest != rank_) {
      flush_to(dest);  // what was queued for dest before leaves first
      const std::size_t capacity = kRecordHeaderBytes + payload_bytes;
      if (std::byte* room = transport_->reserve(dest, capacity)) {
        Buffer record = Buffer::borrowed(room, capacity);
        record.resize(kRecordHeaderBytes);
        encode(record);
        if (record.data() == room) {
          stamp(dest, envelope, record);
          transport_->commit(dest, record.size());
          return;
        }
        // The payload outgrew its lower bound: the record moved into a buffer of its own.
        send_whole(dest, envelope, std::move(record));
        return;
      }
    }
    Buffer record = record_buffer(payload_bytes);
    encode(record);
    send_whole(dest, envelope, std::move(record));
  }

  /// Hands `dest`'s batch to the transport (or to the local queue for this rank), if it holds
  /// anything.
  void flush_to(int dest);
  /// Hands over every partly filled batch.
  void flush();

  /// Batches for this rank, in the order they were flushed; the scheduler delivers them.
  std::deque<Buffer>& local_batches() { return local_batches_; }

  /// Installs the observer of counted sends (nullptr removes it) and the trace (nullptr: none).
  void set_observer(MessageObserver* observer) { observer_ = observer; }
  MessageObserver* observer() const { return observer_; }
  void set_tracer(Tracer* tracer) { tracer_ = tracer; }

  /// Records closed so far: all of them, and those without Envelope::kSystem.
  std::uint64_t total_sent() const { return total_sent_; }
  std::uint64_t counted_sent() const { return counted_sent_; }

 private:
  // `dest`'s batch with room for `room` more bytes (it leaves first when a record that large
  // would double it).
  Buffer& open(int dest, std::size_t room);
  // Writes the record's length at `start` and counts it; flushes a batch that reached the
  // coalescing size.
  void close(int dest, Buffer& batch, std::size_t start, const Envelope& envelope);
  // Writes a whole record's length and envelope into its header and counts it.
  void stamp(int dest, const Envelope& envelope, Buffer& record);
  // The one place a send is counted.
  void count(int dest, const Envelope& envelope) {
    if (tracer_) [[unlikely]]
      tracer_->on_send(dest);
    ++total_sent_;
    if (!envelope.is_system()) {
      ++counted_sent_;
      if (observer_ != nullptr) observer_->on_send(envelope, dest);
    }
  }

  Transport* transport_ = nullptr;
  int rank_ = 0;
  std::size_t coalesce_bytes_ = 0;
  std::vector<Buffer> batches_;  // per destination rank; this rank's own is its local inbox
  std::vector<int> unflushed_;   // ranks whose batch holds records
  std::deque<Buffer> local_batches_;
  MessageObserver* observer_ = nullptr;
  Tracer* tracer_ = nullptr;
  std::uint64_t total_sent_ = 0;
  std::uint64_t counted_sent_ = 0;
};

}  // namespace detail
}  // namespace tessera
