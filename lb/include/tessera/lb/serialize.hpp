#pragma once
// Byte serialization of LB messages, so that the same message types travel through the in-process
// virtual backend and, over MPI, through the live backend.
//
// A message type is either trivially copyable (copied as raw bytes) or provides the cereal-style
//   template <class Archive> void serialize(Archive& ar) { ar(field_a, field_b); }
// Inside serialize, std::vector, std::string and nested message types are allowed. The encoding is
// host byte order with 64-bit length prefixes: both ends of a run share one binary, so no
// portability layer is needed. Decoding a truncated payload throws std::out_of_range.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace tessera::lb::comm {

using Payload = std::vector<std::byte>;

class ByteWriter;
class ByteReader;

namespace detail {
template <class T>
struct vector_element {
  using type = void;
};
template <class E>
struct vector_element<std::vector<E>> {
  using type = E;
};
}  // namespace detail

template <class T>
concept StdVector = !std::is_void_v<typename detail::vector_element<T>::type>;

template <class T>
concept MemberSerializable = requires(T& t, ByteWriter& w) { t.serialize(w); };

class ByteWriter {
 public:
  explicit ByteWriter(Payload& out) : out_(out) {}

  template <class... T>
  void operator()(const T&... values) {
    (put(values), ...);
  }

 private:
  void put_raw(const void* data, std::size_t size) {
    const std::size_t at = out_.size();
    out_.resize(at + size);
    if (size != 0) std::memcpy(out_.data() + at, data, size);
  }

  template <class T>
  void put(const T& value) {
    if constexpr (MemberSerializable<T>) {
      // cereal's convention: one non-const serialize() serves both directions.
      const_cast<T&>(value).serialize(*this);
    } else if constexpr (std::is_same_v<T, std::string>) {
      put(static_cast<std::uint64_t>(value.size()));
      put_raw(value.data(), value.size());
    } else if constexpr (StdVector<T>) {
      put(static_cast<std::uint64_t>(value.size()));
      if constexpr (std::is_trivially_copyable_v<typename T::value_type> &&
                    !MemberSerializable<typename T::value_type>) {
        put_raw(value.data(), value.size() * sizeof(typename T::value_type));
      } else {
        for (const auto& element : value) put(element);
      }
    } else {
      static_assert(std::is_trivially_copyable_v<T>,
                    "LB message fields must be trivially copyable, std::vector, std::string, or "
                    "provide template <class A> void serialize(A&)");
      put_raw(&value, sizeof(T));
    }
  }

  Payload& out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> in) : in_(in) {}

  template <class... T>
  void operator()(T&... values) {
    (get(values), ...);
  }

  bool exhausted() const { return pos_ == in_.size(); }

 private:
  void get_raw(void* data, std::size_t size) {
    if (size > in_.size() - pos_) {
      throw std::out_of_range("LB message payload truncated: need " + std::to_string(size) +
                              " more bytes, " + std::to_string(in_.size() - pos_) + " left");
    }
    if (size != 0) std::memcpy(data, in_.data() + pos_, size);
    pos_ += size;
  }

  std::size_t get_length() {
    std::uint64_t n = 0;
    get(n);
    if (n > in_.size() - pos_) {
      throw std::out_of_range("LB message payload truncated: length prefix " + std::to_string(n) +
                              " exceeds the " + std::to_string(in_.size() - pos_) +
                              " bytes left");
    }
    return static_cast<std::size_t>(n);
  }

  template <class T>
  void get(T& value) {
    if constexpr (requires(T& t, ByteReader& r) { t.serialize(r); }) {
      value.serialize(*this);
    } else if constexpr (std::is_same_v<T, std::string>) {
      value.resize(get_length());
      get_raw(value.data(), value.size());
    } else if constexpr (StdVector<T>) {
      using E = typename T::value_type;
      const std::size_t n = get_length();
      if constexpr (std::is_trivially_copyable_v<E> && !MemberSerializable<E>) {
        if (n > (in_.size() - pos_) / sizeof(E)) {
          throw std::out_of_range("LB message payload truncated inside a vector of " +
                                  std::to_string(n) + " elements");
        }
        value.resize(n);
        get_raw(value.data(), n * sizeof(E));
      } else {
        value.clear();
        value.reserve(n);
        for (std::size_t i = 0; i < n; ++i) get(value.emplace_back());
      }
    } else {
      get_raw(&value, sizeof(T));
    }
  }

  std::span<const std::byte> in_;
  std::size_t pos_ = 0;
};

template <class T>
Payload to_bytes(const T& value) {
  Payload out;
  ByteWriter writer(out);
  writer(value);
  return out;
}

// Throws std::out_of_range if the payload is shorter than T's encoding, std::length_error if longer.
template <class T>
T from_bytes(std::span<const std::byte> bytes) {
  T value{};
  ByteReader reader(bytes);
  reader(value);
  if (!reader.exhausted()) {
    throw std::length_error("LB message payload has trailing bytes after decoding");
  }
  return value;
}

}  // namespace tessera::lb::comm
