#pragma once
/// The receiver's ledger: what each element sent and received in the current phase, and what it
/// has received over the whole run.
///
/// Per phase, an element records every message it sends (count, bytes, the sum of message keys)
/// and every message it receives: one it has not seen this phase is delivered (its key is added to
/// the phase's set), one it has seen is a duplicate, one whose checksum does not match is
/// corrupted (still delivered: its header named it). At the phase's end the program adds the
/// phase tallies of every element and rank into one Tally by a reduction; check() then says what
/// was lost, duplicated or corrupted. Messages never cross a phase end (phase_end() waits for
/// quiescence), so a phase's set can be cleared then. The ledger travels with its element when it
/// migrates and is written into checkpoints.
#include "tessera/soak/message.hpp"

#include <cstdint>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tessera::soak {

/// Sums over one phase (a rank's share, or all ranks' after the reduction). Trivially copyable.
struct Tally {
  std::uint64_t sent = 0;            ///< messages sent
  std::uint64_t sent_keys = 0;       ///< sum of message_key() over messages sent (mod 2^64)
  std::uint64_t sent_bytes = 0;      ///< payload bytes sent
  std::uint64_t delivered = 0;       ///< distinct messages received
  std::uint64_t delivered_keys = 0;  ///< sum of message_key() over distinct messages received
  std::uint64_t bytes = 0;           ///< payload bytes of distinct messages received
  std::uint64_t duplicated = 0;      ///< messages received again
  std::uint64_t corrupted = 0;       ///< messages whose checksum did not match their bytes
  std::uint64_t misrouted = 0;       ///< messages whose header named another receiver
  std::uint64_t ticks = 0;           ///< broadcasts received (each element once per broadcast)
  std::uint64_t tick_duplicates = 0; ///< a broadcast of a phase received a second time

  Tally& operator+=(const Tally& o);
};

/// What a phase's reduced Tally shows.
struct Verdict {
  std::uint64_t lost = 0;        ///< sent but not delivered, broadcasts short of every element
  std::uint64_t duplicated = 0;  ///< delivered again, broadcasts received twice
  std::uint64_t corrupted = 0;   ///< bytes or header not as sent
  bool ok() const { return lost == 0 && duplicated == 0 && corrupted == 0; }
};

/// The verdict on one phase's reduced `t`, when `expected_ticks` broadcast deliveries were due.
/// Equal counts with unequal key sums (another message delivered than sent) count as one lost.
Verdict check(const Tally& t, std::uint64_t expected_ticks);

class Ledger {
 public:
  /// Records a message this element sends in the current phase.
  void sent(const Header& h);
  /// Records a message received by element `self`. False for a duplicate (the caller must not act
  /// on it again).
  bool received(const Header& h, const std::vector<std::uint8_t>& payload, std::uint64_t self);
  /// Records the phase's broadcast; false when this phase's broadcast was already received.
  bool ticked(std::uint64_t phase);
  /// The phase's tally; clears it and the phase's set for the next phase.
  Tally close_phase();

  /// Messages and payload bytes received over the run, and a sum of their checksums: the part of
  /// the element's state that a restart must reproduce exactly.
  std::uint64_t fingerprint(std::uint64_t self) const;

  template <class Archive>
  void serialize(Archive& ar) {
    // The set as a vector: cereal's unordered_set needs its own include, and order is irrelevant.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> seen(seen_.begin(), seen_.end());
    ar(phase_.sent, phase_.sent_keys, phase_.sent_bytes, phase_.delivered, phase_.delivered_keys, phase_.bytes,
       phase_.duplicated, phase_.corrupted, phase_.misrouted, phase_.ticks, phase_.tick_duplicates, seen,
       last_tick_, run_delivered_, run_bytes_, run_checksums_, run_sent_);
    seen_ = Seen(seen.begin(), seen.end());
  }

 private:
  struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& p) const {
      return static_cast<std::size_t>(mix(p.first ^ mix(p.second)));
    }
  };
  using Seen = std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, PairHash>;

  Tally phase_;
  Seen seen_;                                  // (sender, sequence) received this phase
  std::uint64_t last_tick_ = ~std::uint64_t{0};  // the phase of the last broadcast received
  std::uint64_t run_delivered_ = 0;
  std::uint64_t run_bytes_ = 0;
  std::uint64_t run_checksums_ = 0;
  std::uint64_t run_sent_ = 0;
};

}  // namespace tessera::soak
