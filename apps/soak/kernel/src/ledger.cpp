// The ledger's bookkeeping and the per-phase verdict.
#include "tessera/soak/ledger.hpp"

namespace tessera::soak {

Tally& Tally::operator+=(const Tally& o) {
  sent += o.sent;
  sent_keys += o.sent_keys;
  sent_bytes += o.sent_bytes;
  delivered += o.delivered;
  delivered_keys += o.delivered_keys;
  bytes += o.bytes;
  duplicated += o.duplicated;
  corrupted += o.corrupted;
  misrouted += o.misrouted;
  ticks += o.ticks;
  tick_duplicates += o.tick_duplicates;
  return *this;
}

Verdict check(const Tally& t, std::uint64_t expected_ticks) {
  Verdict v;
  v.lost = t.sent > t.delivered ? t.sent - t.delivered : 0;
  // More distinct messages delivered than sent: some were not the messages sent.
  v.corrupted = t.corrupted + t.misrouted + (t.delivered > t.sent ? t.delivered - t.sent : 0);
  if (t.sent == t.delivered && t.sent_keys != t.delivered_keys) v.lost += 1;
  v.duplicated = t.duplicated + t.tick_duplicates;
  const std::uint64_t ticks = t.ticks;  // distinct: duplicates were not counted as ticks
  v.lost += ticks < expected_ticks ? expected_ticks - ticks : 0;
  v.duplicated += ticks > expected_ticks ? ticks - expected_ticks : 0;
  return v;
}

void Ledger::sent(const Header& h) {
  ++phase_.sent;
  phase_.sent_keys += message_key(h);
  phase_.sent_bytes += h.size;
  ++run_sent_;
}

bool Ledger::received(const Header& h, const std::vector<std::uint8_t>& payload, std::uint64_t self) {
  if (!seen_.emplace(h.sender, h.sequence).second) {
    ++phase_.duplicated;
    return false;
  }
  ++phase_.delivered;
  phase_.delivered_keys += message_key(h);
  phase_.bytes += payload.size();
  if (h.receiver != self) ++phase_.misrouted;
  if (payload.size() != h.size || checksum(h, payload) != h.checksum) ++phase_.corrupted;
  ++run_delivered_;
  run_bytes_ += payload.size();
  run_checksums_ += h.checksum;
  return true;
}

bool Ledger::ticked(std::uint64_t phase) {
  if (last_tick_ == phase) {
    ++phase_.tick_duplicates;
    return false;
  }
  last_tick_ = phase;
  ++phase_.ticks;
  return true;
}

Tally Ledger::close_phase() {
  Tally t = phase_;
  phase_ = Tally{};
  seen_.clear();
  return t;
}

std::uint64_t Ledger::fingerprint(std::uint64_t self) const {
  return draw(self, run_delivered_, run_bytes_, draw(run_checksums_, run_sent_));
}

}  // namespace tessera::soak
