#pragma once
// The cache-line size the stealing structures pad to.

#include <cstddef>

namespace tessera::collections::steal {

// 64 bytes: the line size of x86-64 and of most AArch64 server cores. We do not use
// std::hardware_destructive_interference_size: GCC warns that its value may differ between
// translation units compiled with different -mtune, which would make the layout of these
// header-only types an ODR hazard. Where adjacent-line prefetch pairs lines (Intel), two
// hot fields may still interfere at 64 bytes; that costs speed, never correctness.
inline constexpr std::size_t kCacheLine = 64;

// A value alone on its cache line(s), for per-worker counters written on every task.
template <class T>
struct alignas(kCacheLine) CacheAligned {
  T value{};
};

}  // namespace tessera::collections::steal
