#pragma once
/// An owned, uninitialized byte buffer for messages.
///
/// std::vector<std::byte> value-initializes on resize, which costs a full pass over a 100 MiB
/// payload before it is overwritten; Buffer allocates without initializing and grows
/// geometrically while a message is being packed.
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <utility>

namespace tessera {

namespace detail {
// Frees what a Buffer allocated, and leaves memory it only borrowed (Buffer::borrowed).
struct BufferRelease {
  bool owned = true;
  void operator()(std::byte* bytes) const noexcept {
    if (owned) delete[] bytes;
  }
};
}  // namespace detail

class Buffer {
  using Release = detail::BufferRelease;

 public:
  Buffer() = default;
  explicit Buffer(std::size_t capacity) { reserve(capacity); }
  /// An empty buffer over `capacity` bytes at `memory`, which it writes into but does not own or
  /// free (a transport's ring, Transport::reserve). Growing past `capacity` moves it into memory of
  /// its own, contents included: data() then no longer points at `memory`.
  static Buffer borrowed(std::byte* memory, std::size_t capacity) {
    Buffer buffer;
    buffer.data_ = std::unique_ptr<std::byte[], Release>(memory, Release{false});
    buffer.capacity_ = capacity;
    return buffer;
  }
  // A moved-from buffer is empty with no capacity, so code that reuses it allocates again.
  Buffer(Buffer&& other) noexcept
      : data_(std::move(other.data_)), size_(std::exchange(other.size_, 0)), capacity_(std::exchange(other.capacity_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }

  std::byte* data() { return data_.get(); }
  const std::byte* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  std::span<const std::byte> view() const { return {data_.get(), size_}; }

  /// Ensures room for `capacity` bytes, keeping the contents.
  void reserve(std::size_t capacity) {
    if (capacity <= capacity_) return;
    std::unique_ptr<std::byte[], Release> grown(new std::byte[capacity]);
    if (size_ != 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    capacity_ = capacity;
  }
  /// Sets the size; new bytes are uninitialized.
  void resize(std::size_t size) {
    reserve(size);
    size_ = size;
  }
  /// Appends `n` bytes from `src`, growing by doubling.
  void append(const void* src, std::size_t n) {
    if (n == 0) return;  // src may be null then, which memcpy does not allow
    if (size_ + n > capacity_) reserve(std::max(size_ + n, 2 * capacity_));
    std::memcpy(data_.get() + size_, src, n);
    size_ += n;
  }
  /// Appends `n` uninitialized bytes and returns where they start.
  std::byte* grow(std::size_t n) {
    if (size_ + n > capacity_) reserve(std::max(size_ + n, 2 * capacity_));
    std::byte* at = data_.get() + size_;
    size_ += n;
    return at;
  }
  void clear() { size_ = 0; }

 private:
  std::unique_ptr<std::byte[], Release> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace tessera
