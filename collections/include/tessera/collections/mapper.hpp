#pragma once
/// Mappers: which rank is an element's *home*, the rank that constructs it and always knows
/// where it currently lives.
///
/// A mapper is any callable `int(const Index<N>& idx, const Index<N>& bounds, int ranks)`
/// returning a rank in [0, ranks); it must give the same answer on every rank. A result outside
/// the range is a fatal error naming the index and the rank.
#include <tessera/collections/index.hpp>

#include <functional>

namespace tessera::collections {

template <std::size_t N>
using Mapper = std::function<int(const Index<N>& idx, const Index<N>& bounds, int ranks)>;

/// The default mapper: linear ids cut into `ranks` contiguous blocks whose sizes differ by at
/// most one (rank r homes ids [r*V/P, (r+1)*V/P) for V elements on P ranks).
template <std::size_t N>
int block_map(const Index<N>& idx, const Index<N>& bounds, int ranks) {
  const std::uint64_t volume = bounds.volume();
  const std::uint64_t id = linearize(idx, bounds);
  // The largest r with r*V/P <= id, in 128 bits: a sparse index space's volume may be near 2^63.
  const unsigned __int128 scaled = static_cast<unsigned __int128>(id + 1) * static_cast<unsigned>(ranks) - 1;
  return static_cast<int>(scaled / volume);
}

/// Round-robin mapper: linear id modulo the number of ranks.
template <std::size_t N>
int round_robin_map(const Index<N>& idx, const Index<N>& bounds, int ranks) {
  return static_cast<int>(linearize(idx, bounds) % static_cast<std::uint64_t>(ranks));
}

}  // namespace tessera::collections
