#pragma once
/// How a migrating element's state is written into a message and read back, without staging
/// copies.
///
/// The bytes are exactly those of the runtime's argument encoding (serialize.hpp) of one `T`:
/// a trivially copyable element as its bytes, anything else as a 64-bit length and a cereal
/// binary archive of its `serialize` template. What differs is where they go:
/// - `encoded_size` measures the encoding first by running the archive into a counting sink
///   (no bytes are copied), so a large state can be written once into room of exactly its
///   size, which then leaves as its own message (Runtime::send_encoded: between ranks of one
///   node that room is the receiver's ring, so the state is not copied again to get there);
/// - `decode_into` reads the archive straight from the received message into the element that
///   will live on, instead of into a temporary that is then moved (a move of a state held in
///   arrays is a copy).
#include <tessera/runtime/serialize.hpp>

#include <cstdint>
#include <ostream>
#include <streambuf>

namespace tessera::collections::detail {

/// A sink that counts what cereal writes to it and stores nothing.
class CountingSink : public std::streambuf {
 public:
  std::size_t count() const { return count_; }

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) ++count_;
    return c;
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    count_ += static_cast<std::size_t>(n);
    return n;
  }

 private:
  std::size_t count_ = 0;
};

/// Bytes serial::encode<T>(out, value) appends: exact, for any T it can encode.
template <class T>
std::size_t encoded_size(const T& value) {
  if constexpr (serial::is_bitwise_v<T>) {
    return sizeof(T);
  } else {
    CountingSink sink;
    {
      std::ostream stream(&sink);
      serial::OutputArchive archive(stream);
      archive(value);
    }
    return sizeof(std::uint64_t) + sink.count();
  }
}

/// Reads one `T` written by serial::encode<T> into `into`, overwriting it.
template <class T>
void decode_into(serial::Reader& in, T& into) {
  if constexpr (serial::is_bitwise_v<T>) {
    std::memcpy(static_cast<void*>(&into), in.take(sizeof(T)), sizeof(T));
  } else {
    std::uint64_t n = 0;
    std::memcpy(&n, in.take(sizeof n), sizeof n);
    serial::SpanSource source(in.take(n), n);
    std::istream stream(&source);
    serial::InputArchive archive(stream, in.runtime());
    archive(into);
  }
}

}  // namespace tessera::collections::detail
