#pragma once
/// N-dimensional indices of collection elements (N = 1 to 6) and their bounds.
///
/// An index is N signed 64-bit coordinates; bounds are the extents, so a valid index has
/// 0 <= idx[d] < bounds[d] in every dimension. Elements are numbered row-major (the last
/// coordinate varies fastest); that number, the element's *linear id*, is what travels in
/// messages and what LB data calls the element's `seq_id`. A dynamic collection's index space may
/// be sparse (octree or AMR block ids in up to 6 dimensions): only the volume must stay below
/// 2^63 (Collection checks it), since no storage is sized by it.
#include <tessera/runtime/error.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::collections {

template <std::size_t N>
struct Index {
  static_assert(N >= 1 && N <= 6, "collections are indexed in 1 to 6 dimensions");
  static constexpr std::size_t dimensions = N;
  std::array<std::int64_t, N> at{};

  Index() = default;
  template <class... C>
    requires(sizeof...(C) == N && (std::is_integral_v<C> && ...))
  Index(C... coordinates) : at{static_cast<std::int64_t>(coordinates)...} {}

  std::int64_t operator[](std::size_t d) const { return at[d]; }
  std::int64_t& operator[](std::size_t d) { return at[d]; }
  bool operator==(const Index&) const = default;

  /// Number of indices inside these bounds (the product of the extents).
  std::uint64_t volume() const {
    std::uint64_t v = 1;
    for (auto extent : at) v *= static_cast<std::uint64_t>(extent);
    return v;
  }
  /// True when 0 <= (*this)[d] < bounds[d] for every d.
  bool inside(const Index& bounds) const {
    for (std::size_t d = 0; d < N; ++d)
      if (at[d] < 0 || at[d] >= bounds.at[d]) return false;
    return true;
  }
  std::vector<std::int64_t> to_vector() const { return {at.begin(), at.end()}; }

  template <class Archive>
  void serialize(Archive& archive) {
    archive(at);
  }
};

using Index1D = Index<1>;
using Index2D = Index<2>;
using Index3D = Index<3>;

/// The product of the extents, or nullopt when it is 2^63 or more (linear ids would not fit).
template <std::size_t N>
std::optional<std::uint64_t> checked_volume(const Index<N>& bounds) {
  std::uint64_t v = 1;
  for (auto extent : bounds.at)
    if (extent <= 0 || __builtin_mul_overflow(v, static_cast<std::uint64_t>(extent), &v)) return std::nullopt;
  return v < (std::uint64_t{1} << 63) ? std::optional(v) : std::nullopt;
}

/// "(3, 4)": the form used in error messages.
template <std::size_t N>
std::string to_string(const Index<N>& idx) {
  std::string text = "(";
  for (std::size_t d = 0; d < N; ++d) text += (d ? ", " : "") + std::to_string(idx[d]);
  return text + ")";
}

/// Row-major linear id of `idx` within `bounds`. The caller has checked idx is inside.
template <std::size_t N>
std::uint64_t linearize(const Index<N>& idx, const Index<N>& bounds) {
  std::uint64_t id = 0;
  for (std::size_t d = 0; d < N; ++d)
    id = id * static_cast<std::uint64_t>(bounds[d]) + static_cast<std::uint64_t>(idx[d]);
  return id;
}

/// The index whose linear id within `bounds` is `id` (id < bounds.volume()).
template <std::size_t N>
Index<N> delinearize(std::uint64_t id, const Index<N>& bounds) {
  Index<N> idx;
  for (std::size_t d = N; d-- > 0;) {
    const auto extent = static_cast<std::uint64_t>(bounds[d]);
    idx[d] = static_cast<std::int64_t>(id % extent);
    id /= extent;
  }
  return idx;
}

/// Fatal error (every rank aborts) for an index outside the bounds of collection `collection`.
template <std::size_t N>
[[noreturn]] void index_out_of_bounds(const Index<N>& idx, const Index<N>& bounds,
                                      std::uint64_t collection) {
  fatal("index {} is outside the bounds {} of collection {}: expected 0 <= index < bounds in "
        "every dimension",
        to_string(idx), to_string(bounds), collection);
}

}  // namespace tessera::collections
