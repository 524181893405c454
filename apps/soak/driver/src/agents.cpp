// The elements' handlers: every choice drawn from the message's identity (message.hpp), so a
// phase's outcome does not depend on arrival order, rank count or placement.
#include "agents.hpp"

namespace tessera::soak {

using collections::Index1D;
using collections::Index2D;

namespace {

void route(const Peers& peers, const Header& h, std::vector<std::uint8_t> payload) {
  if (h.receiver >= peers.first_spark()) {
    peers.c[Index1D{static_cast<std::int64_t>(h.receiver - peers.first_spark())}].send<&Spark::deliver>(
        h, std::move(payload), peers);
    return;
  }
  if (h.receiver < peers.na) {
    peers.a[Index1D{static_cast<std::int64_t>(h.receiver)}].send<&Cell::deliver>(h, std::move(payload), peers);
    return;
  }
  const auto linear = static_cast<std::int64_t>(h.receiver - peers.na);
  const std::int64_t cols = peers.b.bounds()[1];
  peers.b[Index2D{linear / cols, linear % cols}].send<&Patch::deliver>(h, std::move(payload), peers);
}

}  // namespace

bool Peers::injected(const Header& h) const {
  return inject != static_cast<std::int32_t>(Inject::none) && h.sender == first_source() &&
         h.sequence == root_sequence(inject_phase, 0);
}

void post(Ledger& ledger, Header h, const Peers& peers) {
  std::vector<std::uint8_t> payload = make_payload(h.sender, h.sequence, h.size);
  h.checksum = checksum(h, payload);
  ledger.sent(h);
  const bool chosen = peers.injected(h);
  if (chosen && peers.inject == static_cast<std::int32_t>(Inject::corrupt)) {
    if (payload.empty()) h.checksum ^= 1;
    else payload[payload.size() / 2] ^= 0x40;
  }
  if (chosen && peers.inject == static_cast<std::int32_t>(Inject::duplicate)) route(peers, h, payload);
  route(peers, h, std::move(payload));
}

template <class Derived, std::size_t N>
std::uint64_t Agent<Derived, N>::self(const Peers& peers) const {
  if constexpr (std::is_same_v<Derived, Spark>) return peers.first_spark() + this->linear_id();
  return (std::is_same_v<Derived, Cell> ? 0 : peers.na) + this->linear_id();
}

template <class Derived, std::size_t N>
void Agent<Derived, N>::receive(const Header& h, const std::vector<std::uint8_t>& payload, const Peers& peers) {
  if (peers.inject == static_cast<std::int32_t>(Inject::drop) && peers.injected(h)) return;
  const std::uint64_t me = self(peers);
  if (!ledger_.received(h, payload, me)) return;  // a duplicate must not be passed on again
  const std::uint64_t key = message_key(h) ^ mix(peers.seed);
  if (h.ttl > 0) {
    const int children = draw(key, 1) % 8 == 0 ? 2 : 1;
    for (int i = 0; i < children; ++i) {
      Header c;
      c.sender = me;
      c.receiver = peers.receiver(draw(key, 2, i), h.phase);
      // 2^63 and up: never a root sequence; a hash of the parent, so unique for this sender.
      c.sequence = (std::uint64_t{1} << 63) | (draw(key, 3, i) >> 1);
      c.phase = h.phase;
      c.ttl = h.ttl - 1;
      c.size = draw_size(draw(key, 4, i));
      post(ledger_, c, peers);
    }
  }
  if (peers.migrate_one_in > 0 && !leaving_ && draw(key, 5) % static_cast<std::uint64_t>(peers.migrate_one_in) == 0) {
    Runtime& rt = this->runtime();
    const int dest = static_cast<int>(draw(key, 6) % static_cast<std::uint64_t>(rt.size()));
    if (dest != rt.rank()) {
      leaving_ = true;
      this->migrate(dest);
    }
  }
}

template <class Derived, std::size_t N>
void Agent<Derived, N>::start_phase(std::uint64_t phase, const Peers& peers) {
  if (!ledger_.ticked(phase)) return;
  const std::uint64_t me = self(peers);
  for (std::int64_t k = 0; k < peers.fanout; ++k) {
    const std::uint64_t r = draw(peers.seed, me, phase, static_cast<std::uint64_t>(k));
    Header h;
    h.sender = me;
    h.receiver = peers.receiver(r, phase);
    h.sequence = root_sequence(phase, static_cast<std::uint64_t>(k));
    h.phase = phase;
    h.ttl = static_cast<std::uint32_t>(mix(r) % static_cast<std::uint64_t>(peers.ttl + 1));
    h.size = draw_size(mix(r ^ 0x51e));
    post(ledger_, h, peers);
  }
}

template class Agent<Cell, 1>;
template class Agent<Patch, 2>;
template class Agent<Spark, 1>;

void Cell::deliver(Header h, std::vector<std::uint8_t> payload, Peers peers) { receive(h, payload, peers); }
void Cell::tick(std::uint64_t phase, Peers peers) { start_phase(phase, peers); }
void Patch::deliver(Header h, std::vector<std::uint8_t> payload, Peers peers) { receive(h, payload, peers); }
void Patch::tick(std::uint64_t phase, Peers peers) { start_phase(phase, peers); }
void Spark::deliver(Header h, std::vector<std::uint8_t> payload, Peers peers) { receive(h, payload, peers); }

}  // namespace tessera::soak
