#pragma once
// One deque element stored as relaxed atomic 64-bit words.
//
// In both work-stealing deques here (chase_lev_deque.hpp, abp_deque.hpp) a thief reads an
// element before it has won the race for it, so that read may overlap the owner overwriting
// the slot (after a ring wrap-around in Chase-Lev, after a reset to index 0 in ABP); the
// loser discards what it read. Copying the element in and out word by word through relaxed
// atomics makes that overlap a race on atomics rather than undefined behaviour (Le, Pop,
// Cohen, Zappa Nardelli, PPoPP 2013, make the buffer atomic for the same reason). A torn
// value is possible only in a result that is thrown away. Which happens-before edge makes a
// slot's contents visible is each deque's business, documented there.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tessera::collections::steal {

// What a deque can hold: copied as bytes, and default-constructed for an empty result.
template <class T>
concept Stealable = std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>;

template <Stealable T>
class AtomicSlot {
 public:
  void store(const T& value) noexcept {
    std::uint64_t words[kWords] = {};
    std::memcpy(words, &value, sizeof(T));
    for (std::size_t i = 0; i < kWords; ++i) {
      words_[i].store(words[i], std::memory_order_relaxed);
    }
  }

  T load() const noexcept {
    T value;
    load_into(value);
    return value;
  }

  // Copies the element into `out` a word at a time, so that a caller constructing the
  // element in place (an optional's storage) reads it back from same-sized stores: a wide
  // copy through an intermediate would defeat store-to-load forwarding.
  void load_into(T& out) const noexcept {
    auto* bytes = reinterpret_cast<unsigned char*>(&out);
    for (std::size_t i = 0; i < kWords; ++i) {
      const std::uint64_t word = words_[i].load(std::memory_order_relaxed);
      const std::size_t offset = i * sizeof(std::uint64_t);
      std::memcpy(bytes + offset, &word, std::min(sizeof(std::uint64_t), sizeof(T) - offset));
    }
  }

 private:
  static constexpr std::size_t kWords = (sizeof(T) + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t);
  std::atomic<std::uint64_t> words_[kWords];
};

}  // namespace tessera::collections::steal
