#include <tessera/runtime/outbox.hpp>

#include <algorithm>

namespace tessera::detail {

Buffer& Outbox::open(int dest, std::size_t room) {
  Buffer& batch = batches_[static_cast<std::size_t>(dest)];
  if (batch.capacity() == 0) {
    batch = transport_->acquire(std::max<std::size_t>(room, 4096));
  } else if (batch.size() != 0 && batch.size() + room > batch.capacity() && room > batch.capacity() / 2) {
    // A record that would double the batch leaves after what is queued, in a buffer of its own
    // size (pooled when large), rather than making the batch grow and copy.
    flush_to(dest);
    batch = transport_->acquire(std::max<std::size_t>(room, 4096));
  }
  if (batch.size() == 0) unflushed_.push_back(dest);
  return batch;
}

void Outbox::close(int dest, Buffer& batch, std::size_t start, const Envelope& envelope) {
  const std::uint64_t length = batch.size() - start - sizeof(std::uint64_t);
  std::memcpy(batch.data() + start, &length, sizeof length);
  count(dest, envelope);
  if (dest != rank_ && batch.size() >= coalesce_bytes_) flush_to(dest);
}

void Outbox::copy_record(int dest, std::span<const std::byte> record) {
  Buffer& batch = open(dest, sizeof(std::uint64_t) + record.size());
  const std::size_t start = batch.size();
  batch.grow(sizeof(std::uint64_t));
  batch.append(record.data(), record.size());
  Envelope envelope;
  std::memcpy(&envelope, record.data(), sizeof envelope);
  close(dest, batch, start, envelope);
}

void Outbox::send_whole(int dest, const Envelope& envelope, Buffer&& record) {
  stamp(dest, envelope, record);
  // A batch is a sequence of records, so the record is a batch of its own; what was queued for
  // dest before it leaves first, which keeps per-pair order.
  flush_to(dest);
  if (dest == rank_) local_batches_.push_back(std::move(record));
  else transport_->send(dest, std::move(record));
}

void Outbox::stamp(int dest, const Envelope& envelope, Buffer& record) {
  if (record.size() < kRecordHeaderBytes)
    fatal("send_record: a record of {} bytes has no room for its header: expected at least {} (use "
          "record_buffer)",
          record.size(), kRecordHeaderBytes);
  const std::uint64_t length = record.size() - sizeof(std::uint64_t);
  std::memcpy(record.data(), &length, sizeof length);
  std::memcpy(record.data() + sizeof length, &envelope, sizeof envelope);
  count(dest, envelope);
}

void Outbox::flush_to(int dest) {
  Buffer& batch = batches_[static_cast<std::size_t>(dest)];
  if (batch.size() == 0) return;
  if (dest == rank_) local_batches_.push_back(std::move(batch));
  else transport_->send(dest, std::move(batch));
  batch = Buffer{};
}

void Outbox::flush() {
  // Indexed loop: flushing never adds ranks, but keep it robust to growth.
  for (std::size_t i = 0; i < unflushed_.size(); ++i) flush_to(unflushed_[i]);
  unflushed_.clear();
}

}  // namespace tessera::detail
