#pragma once
/// How handler arguments become message bytes, and back.
///
/// Each argument is encoded on its own, in order, by the first rule that fits its type:
/// - trivially copyable types are copied as their bytes (no archive, no length prefix);
/// - `std::span<const std::byte>` and `std::string_view` are a 64-bit length and the bytes; on
///   the receiver they decode to a view into the message buffer, valid during the handler only
///   (zero copies on receive);
/// - everything else (std::vector, std::string, maps, user types with a `serialize(Archive&)`
///   template) is a 64-bit length and a binary archive (archive.hpp: cereal's binary format, with
///   vectors of trivially copyable elements as one block of bytes).
/// Lengths are 64-bit, so payloads of any size work.
#include <tessera/runtime/buffer.hpp>
#include <tessera/runtime/error.hpp>

#include <tessera/runtime/archive.hpp>

#include <cereal/types/array.hpp>
#include <cereal/types/deque.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/memory.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/set.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/tuple.hpp>
#include <cereal/types/unordered_map.hpp>
#include <cereal/types/unordered_set.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/variant.hpp>
#include <cereal/types/vector.hpp>

#include <cstdint>
#include <istream>
#include <ostream>
#include <span>
#include <streambuf>
#include <string_view>
#include <type_traits>

namespace tessera::serial {

template <class T>
inline constexpr bool is_view_v =
    std::is_same_v<T, std::span<const std::byte>> || std::is_same_v<T, std::string_view>;

template <class T>
inline constexpr bool is_bitwise_v = std::is_trivially_copyable_v<T> && !is_view_v<T>;

/// Streams cereal's output straight into a Buffer.
class BufferSink : public std::streambuf {
 public:
  explicit BufferSink(Buffer& out) : out_(out) {}

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      const char ch = static_cast<char>(c);
      out_.append(&ch, 1);
    }
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.append(s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  Buffer& out_;
};

/// Lets cereal read from a span of message bytes without copying them first.
class SpanSource : public std::streambuf {
 public:
  SpanSource(const std::byte* data, std::size_t size) {
    char* begin = const_cast<char*>(reinterpret_cast<const char*>(data));
    setg(begin, begin, begin + size);
  }
};

/// Reads encoded arguments in order; a read past the end is a malformed message. `runtime` is the
/// runtime the bytes are decoded for (serial::decoding_runtime): proxies among the arguments bind
/// to it.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes, Runtime* runtime = nullptr)
      : at_(bytes.data()), end_(bytes.data() + bytes.size()), runtime_(runtime) {}
  const std::byte* take(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n)
      fatal("malformed message: needed {} more bytes, {} left", n, end_ - at_);
    const std::byte* here = at_;
    at_ += n;
    return here;
  }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - at_); }
  Runtime* runtime() const { return runtime_; }

 private:
  const std::byte* at_;
  const std::byte* end_;
  Runtime* runtime_;
};

/// Appends the encoding of `value` to `out`.
template <class T>
void encode(Buffer& out, const T& value) {
  if constexpr (is_bitwise_v<T>) {
    out.append(&value, sizeof(T));
  } else if constexpr (is_view_v<T>) {
    const std::uint64_t n = value.size();
    out.append(&n, sizeof n);
    out.append(value.data(), n);
  } else {
    const std::size_t at = out.size();
    out.grow(sizeof(std::uint64_t));
    {
      BufferSink sink(out);
      std::ostream stream(&sink);
      serial::OutputArchive archive(stream);
      archive(value);
    }
    const std::uint64_t n = out.size() - at - sizeof(std::uint64_t);
    std::memcpy(out.data() + at, &n, sizeof n);
  }
}

/// Decodes one `T` written by encode<T>. Views point into the reader's bytes.
template <class T>
T decode(Reader& in) {
  if constexpr (is_bitwise_v<T>) {
    T value;
    std::memcpy(static_cast<void*>(&value), in.take(sizeof(T)), sizeof(T));
    return value;
  } else {
    std::uint64_t n = 0;
    std::memcpy(&n, in.take(sizeof n), sizeof n);
    const std::byte* bytes = in.take(n);
    if constexpr (is_view_v<T>) {
      return T(reinterpret_cast<const typename T::value_type*>(bytes), n);
    } else {
      static_assert(std::is_default_constructible_v<T>,
                    "a handler argument that is not trivially copyable must be default "
                    "constructible and have a serialize(Archive&) template");
      SpanSource source(bytes, n);
      std::istream stream(&source);
      serial::InputArchive archive(stream, in.runtime());
      T value;
      archive(value);
      return value;
    }
  }
}

/// Bytes encode<T>(value) appends: exact for bitwise values and views, a lower bound otherwise
/// (cereal's output is not known before it is written).
template <class T>
std::size_t size_hint(const T& value) {
  if constexpr (is_bitwise_v<T>) return sizeof(T);
  else if constexpr (is_view_v<T>) return sizeof(std::uint64_t) + value.size() * sizeof(typename T::value_type);
  else return sizeof(std::uint64_t);
}

/// Exact encoded size when every parameter is bitwise, else 0 (unknown before encoding).
template <class... Ts>
constexpr std::size_t fixed_size() {
  if constexpr ((is_bitwise_v<Ts> && ...)) return (sizeof(Ts) + ... + 0);
  else return 0;
}

}  // namespace tessera::serial
