// A color's cycle as a chain of stages joined by its neighbours' messages (color.hpp).
#include "tessera/lulesh/driver/color.hpp"

#include <cstring>
#include <stdexcept>

namespace tessera::lulesh {

Color::Color(const collections::Index3D& idx, const Problem& problem)
    : domain_(problem, static_cast<int>(idx[2]), static_cast<int>(idx[1]), static_cast<int>(idx[0])) {}

collections::Index3D Color::neighbour(int direction) const {
  const Offset o = offset(direction);
  collections::Index3D n = index();
  n[0] += o.plane;
  n[1] += o.row;
  n[2] += o.col;
  return n;
}

void Color::exchange_mass() { send_and_wait(Exchange::mass); }

void Color::cycle(Real global_bound) {
  if (domain_.fault() != Fault::none) return;  // the driver stops the run at this cycle's reduction
  domain_.time_increment(global_bound);
  domain_.compute_forces();
  // A fault leaves the neighbours waiting; the phase still ends (nothing is in flight) and the
  // driver's reduction stops the run.
  if (domain_.fault() != Fault::none) return;
  send_and_wait(Exchange::forces);
}

void Color::ghosts(std::uint8_t exchange, std::uint8_t from, std::span<const std::byte> values) {
  if (exchange >= kExchanges || from >= kDirections)
    throw std::invalid_argument("tessera-lulesh: a ghost message names no exchange or direction");
  Inbox& inbox = inbox_[exchange];
  std::vector<Real>& buffer = inbox.buffers[from];
  buffer.resize(values.size() / sizeof(Real));
  if (!values.empty()) std::memcpy(buffer.data(), values.data(), buffer.size() * sizeof(Real));
  ++inbox.count;
  if (waiting_ == exchange) advance();
}

void Color::resume(std::uint8_t exchange) {
  if (waiting_ == exchange) advance();
}

bool Color::ready(Exchange x) const {
  return waiting_ == static_cast<std::uint8_t>(x) && inbox_[waiting_].count >= domain_.expected(x);
}

void Color::send_and_wait(Exchange x) {
  for (int d = 0; d < kDirections; ++d) {
    if (!domain_.sends(x, d)) continue;
    if (Color* local = proxy().local(neighbour(d))) {
      Inbox& inbox = local->inbox_[static_cast<int>(x)];
      domain_.pack(x, d, inbox.buffers[opposite(d)]);
      ++inbox.count;
      if (local->ready(x)) proxy()[neighbour(d)].send<&Color::resume>(static_cast<std::uint8_t>(x));
      continue;
    }
    domain_.pack(x, d, pack_);
    proxy()[neighbour(d)].send<&Color::ghosts>(static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(opposite(d)),
                                                std::as_bytes(std::span<const Real>(pack_)));
  }
  waiting_ = static_cast<std::uint8_t>(x);
  advance();
}

void Color::advance() {
  const auto x = static_cast<Exchange>(waiting_);
  Inbox& inbox = inbox_[waiting_];
  if (inbox.count < domain_.expected(x)) return;
  std::array<std::span<const Real>, kDirections> received;
  for (int d = 0; d < kDirections; ++d) received[d] = inbox.buffers[d];
  domain_.unpack(x, received);
  for (auto& buffer : inbox.buffers) buffer.clear();
  inbox.count = 0;
  waiting_ = kIdle;
  switch (x) {
    case Exchange::mass:
      return;
    case Exchange::forces:
      domain_.advance_nodes();
      return send_and_wait(Exchange::position_velocity);
    case Exchange::position_velocity:
      domain_.compute_gradients();
      if (domain_.fault() != Fault::none) return;
      return send_and_wait(Exchange::gradients);
    case Exchange::gradients:
      domain_.update_elements();
      return;
  }
}

}  // namespace tessera::lulesh
