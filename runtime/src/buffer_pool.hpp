#pragma once
// The buffers a network transport packs batches into and receives bulk payloads into, kept for
// reuse: one pool for every transport (mpi_transport.cpp, ofi_transport.cpp).
//
// Batch-sized buffers (`pool_bytes`) are pooled by count. Larger ones (bulk payloads, and large
// records that layers above pack in place) are kept up to `large_pool_bytes` in total and handed
// out best fit: freshly allocated memory costs a page fault per 4 KiB page on first touch, more
// than copying into a mapped page.
#include <tessera/runtime/buffer.hpp>

#include <cstddef>
#include <map>
#include <vector>

namespace tessera::detail {

class BufferPool {
 public:
  BufferPool(std::size_t pool_bytes, std::size_t large_pool_bytes)
      : pool_bytes_(pool_bytes), large_pool_limit_(large_pool_bytes) {}

  /// A buffer with room for at least `bytes`.
  Buffer acquire(std::size_t bytes) {
    if (bytes <= pool_bytes_) {
      if (!pool_.empty()) {
        Buffer b = std::move(pool_.back());
        pool_.pop_back();
        return b;
      }
      return Buffer(pool_bytes_);
    }
    // Best fit, but never a buffer more than twice the request: that memory is better kept for a
    // message of its own size.
    auto fit = large_pool_.lower_bound(bytes);
    if (fit != large_pool_.end() && fit->first / 2 <= bytes) {
      Buffer b = std::move(fit->second);
      large_pool_bytes_ -= fit->first;
      large_pool_.erase(fit);
      return b;
    }
    return Buffer(bytes);
  }

  /// Keeps `bytes` (cleared) for reuse and returns true, or returns false and leaves it to the
  /// caller when the pool is full or the size is not worth keeping (a transport then releases what
  /// it attached to the buffer, such as a memory registration).
  bool keep(Buffer& bytes) {
    const std::size_t capacity = bytes.capacity();
    bytes.clear();
    if (capacity == pool_bytes_) {
      if (pool_.size() >= kPoolLimit) return false;
      pool_.push_back(std::move(bytes));
      return true;
    }
    if (capacity > pool_bytes_ && large_pool_bytes_ + capacity <= large_pool_limit_) {
      large_pool_bytes_ += capacity;
      large_pool_.emplace(capacity, std::move(bytes));
      return true;
    }
    return false;
  }

 private:
  static constexpr std::size_t kPoolLimit = 64;
  std::size_t pool_bytes_;
  std::size_t large_pool_limit_;
  std::vector<Buffer> pool_;
  std::multimap<std::size_t, Buffer> large_pool_;  // by capacity
  std::size_t large_pool_bytes_ = 0;
};

}  // namespace tessera::detail
