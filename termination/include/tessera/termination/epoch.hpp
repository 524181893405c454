#pragma once
/// Epoch identifiers.
///
/// An epoch is a set of work whose end the runtime detects: every message sent in the epoch,
/// and every message those messages caused, transitively, on any rank. Ids are 64 bits:
/// - collective epochs (every rank opens them, in the same order): bit 63 clear, the opening
///   sequence number in the low bits, so every rank computes the same id without talking;
/// - rooted epochs (one rank opens them): bit 63 set, the root rank in bits 40..62 and the root's
///   own sequence number in bits 0..39, so ids from different roots never collide.
/// Id 0 is the global epoch (runtime/envelope.hpp): work outside any epoch.
#include <tessera/runtime/envelope.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace tessera {

inline constexpr std::uint64_t kRootedEpochBit = std::uint64_t{1} << 63;

inline EpochId make_collective_epoch(std::uint64_t sequence) { return sequence; }
inline EpochId make_rooted_epoch(int root, std::uint64_t sequence) {
  return kRootedEpochBit | (static_cast<std::uint64_t>(root) << 40) | (sequence & ((std::uint64_t{1} << 40) - 1));
}
inline bool is_rooted_epoch(EpochId epoch) { return (epoch & kRootedEpochBit) != 0; }
/// The rank that opened a rooted epoch; 0 (the wave root) for collective epochs.
inline int epoch_root(EpochId epoch) {
  return is_rooted_epoch(epoch) ? static_cast<int>((epoch >> 40) & ((std::uint64_t{1} << 23) - 1)) : 0;
}
/// A readable name: "collective epoch 7" or "rooted epoch 3 of rank 2".
inline std::string epoch_name(EpochId epoch) {
  if (epoch == kGlobalEpoch) return "the global epoch";
  if (is_rooted_epoch(epoch))
    return fmt::format("rooted epoch {} of rank {}", epoch & ((std::uint64_t{1} << 40) - 1), epoch_root(epoch));
  return fmt::format("collective epoch {}", epoch);
}

}  // namespace tessera
