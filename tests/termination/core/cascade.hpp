#pragma once
// Random message cascades for termination tests: each handler sends a seeded random number of
// messages to random ranks, down to a random depth, and tallies what it sent and handled per
// epoch, independently of the termination layer's own counters.
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <cstdint>
#include <map>
#include <set>

namespace cascade {

struct Tally {
  std::map<tessera::EpochId, std::int64_t> sent;
  std::map<tessera::EpochId, std::int64_t> handled;
  std::set<tessera::EpochId> ended;  // epochs whose wait() returned here
  std::int64_t late = 0;             // handlers that ran in an epoch after it ended here
};
inline Tally tally;

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void step(tessera::Runtime& rt, std::uint64_t seed, int depth);

/// Sends one cascade message in the current epoch.
inline void launch(tessera::Runtime& rt, std::uint64_t seed, int depth) {
  tally.sent[rt.current_epoch()] += 1;
  rt.send<&step>(static_cast<int>(mix(seed) % rt.size()), seed, depth);
}

inline void step(tessera::Runtime& rt, std::uint64_t seed, int depth) {
  const tessera::EpochId epoch = rt.current_epoch();
  tally.handled[epoch] += 1;
  if (tally.ended.count(epoch) != 0) ++tally.late;
  if (depth == 0) return;
  const int children = static_cast<int>(mix(seed ^ 0x5555) % 4);  // 0..3, mean 1.5
  for (int i = 0; i < children; ++i) launch(rt, mix(seed * 31 + i + 1), depth - 1);
}

}  // namespace cascade
