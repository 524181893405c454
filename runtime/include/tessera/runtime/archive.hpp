#pragma once
/// The binary archives Tessera serializes non-trivially-copyable handler arguments and migrating
/// element states with: cereal's binary format, plus one fast path.
///
/// cereal writes a `std::vector<T>` of arithmetic T as one block, but a vector of any other T one
/// element at a time through T's `serialize`, which for a vector of small structs (particles,
/// cells) is a stream call per field: a 10,000-particle color took about a millisecond to encode,
/// twice (measure, then write), and again to decode. These archives write a vector of trivially
/// copyable T, whatever its `serialize` says, as a size tag and one block of bytes, and read it
/// back with one copy. Such a T therefore migrates as its bytes, like a trivially copyable
/// handler argument does (serialize.hpp); its `serialize` is not called for vector elements.
///
/// Everything else is cereal's binary encoding: arithmetic values as their bytes, size tags as
/// 64-bit counts, names dropped. Both ends of a message run the same executable, so the format
/// needs no endianness or version handling. Errors: a read past the end of the data throws
/// cereal::Exception, which the message layer reports as a malformed message.
///
/// An input archive knows the runtime it decodes for (decoding_runtime): a proxy read from a
/// message or a migrated state binds to the runtime delivering it, not to a process-wide one.
#include <cereal/cereal.hpp>

#include <cstring>
#include <istream>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace tessera {
class Runtime;
}

namespace tessera::serial {

class OutputArchive : public cereal::OutputArchive<OutputArchive, cereal::AllowEmptyClassElision> {
 public:
  explicit OutputArchive(std::ostream& stream)
      : cereal::OutputArchive<OutputArchive, cereal::AllowEmptyClassElision>(this), sink_(*stream.rdbuf()) {}

  void saveBinary(const void* data, std::streamsize size) {
    if (sink_.sputn(static_cast<const char*>(data), size) != size)
      throw cereal::Exception("failed to write " + std::to_string(size) + " bytes");
  }

 private:
  std::streambuf& sink_;
};

class InputArchive : public cereal::InputArchive<InputArchive, cereal::AllowEmptyClassElision> {
 public:
  /// `runtime`: the runtime the data is decoded for (nullptr: none, and proxies cannot be read).
  explicit InputArchive(std::istream& stream, Runtime* runtime = nullptr)
      : cereal::InputArchive<InputArchive, cereal::AllowEmptyClassElision>(this), source_(*stream.rdbuf()),
        runtime_(runtime) {}

  Runtime* runtime() const { return runtime_; }

  void loadBinary(void* data, std::streamsize size) {
    if (source_.sgetn(static_cast<char*>(data), size) != size)
      throw cereal::Exception("failed to read " + std::to_string(size) + " bytes: the data ends first");
  }

 private:
  std::streambuf& source_;
  Runtime* runtime_;
};

/// The runtime `archive` decodes for: what a proxy's load() binds to. Fatal (a programming error,
/// not bad input) when the archive is not one of Tessera's or was made without a runtime, e.g. a
/// proxy decoded by hand outside a message or a collection's state.
[[noreturn]] void no_decoding_runtime();
template <class Archive>
Runtime& decoding_runtime(Archive& archive) {
  if constexpr (std::is_same_v<Archive, InputArchive>) {
    if (archive.runtime() != nullptr) return *archive.runtime();
  }
  no_decoding_runtime();
}

template <class T>
inline constexpr bool is_block_element_v =
    std::is_trivially_copyable_v<T> && !std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

// cereal's binary rules, for these archives.
template <class T>
std::enable_if_t<std::is_arithmetic_v<T>> CEREAL_SAVE_FUNCTION_NAME(OutputArchive& ar, const T& t) {
  ar.saveBinary(std::addressof(t), sizeof(t));
}
template <class T>
std::enable_if_t<std::is_arithmetic_v<T>> CEREAL_LOAD_FUNCTION_NAME(InputArchive& ar, T& t) {
  ar.loadBinary(std::addressof(t), sizeof(t));
}
template <class Archive, class T>
CEREAL_ARCHIVE_RESTRICT(InputArchive, OutputArchive)
CEREAL_SERIALIZE_FUNCTION_NAME(Archive& ar, cereal::NameValuePair<T>& t) {
  ar(t.value);
}
template <class Archive, class T>
CEREAL_ARCHIVE_RESTRICT(InputArchive, OutputArchive)
CEREAL_SERIALIZE_FUNCTION_NAME(Archive& ar, cereal::SizeTag<T>& t) {
  ar(t.size);
}
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(OutputArchive& ar, const cereal::BinaryData<T>& bd) {
  ar.saveBinary(bd.data, static_cast<std::streamsize>(bd.size));
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(InputArchive& ar, cereal::BinaryData<T>& bd) {
  ar.loadBinary(bd.data, static_cast<std::streamsize>(bd.size));
}

// The fast path: more specialized than cereal's vector overloads (which take any Archive), so
// overload resolution picks these for these archives.
template <class T, class A>
std::enable_if_t<is_block_element_v<T>> CEREAL_SAVE_FUNCTION_NAME(OutputArchive& ar, const std::vector<T, A>& v) {
  ar(cereal::make_size_tag(static_cast<cereal::size_type>(v.size())));
  ar.saveBinary(v.data(), static_cast<std::streamsize>(v.size() * sizeof(T)));
}
template <class T, class A>
std::enable_if_t<is_block_element_v<T>> CEREAL_LOAD_FUNCTION_NAME(InputArchive& ar, std::vector<T, A>& v) {
  cereal::size_type n = 0;
  ar(cereal::make_size_tag(n));
  v.resize(static_cast<std::size_t>(n));
  ar.loadBinary(v.data(), static_cast<std::streamsize>(n * sizeof(T)));
}

}  // namespace tessera::serial

CEREAL_REGISTER_ARCHIVE(tessera::serial::OutputArchive)
CEREAL_REGISTER_ARCHIVE(tessera::serial::InputArchive)
CEREAL_SETUP_ARCHIVE_TRAITS(tessera::serial::InputArchive, tessera::serial::OutputArchive)
