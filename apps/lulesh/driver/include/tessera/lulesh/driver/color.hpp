#pragma once
/// A color of tessera-lulesh: one LULESH domain as an element of a 3-D collection, index
/// (plane, row, col), so its linear id is the rank number the original gives the same domain.
///
/// One cycle is one phase. Rank 0 broadcasts `cycle(bound)` with the reduced time-step bound;
/// each color then runs the cycle's stages (domain.hpp) and, at each of the original's three
/// communication points, sends its share to its neighbours as element messages (`ghosts`) and
/// goes on only once every buffer it expects has arrived:
///
///     cycle(bound):   time_increment, compute_forces  -> ghosts(forces) to up to 26 neighbours
///     all forces in:  unpack, advance_nodes           -> ghosts(position_velocity)
///     all in:         unpack, compute_gradients       -> ghosts(gradients) to up to 6 neighbours
///     all in:         unpack, update_elements         (the cycle is done; dt_bound() is next's)
///
/// A neighbour on the same rank packs straight into this color's inbox, as Charm++'s ckLocal()
/// allows, with no message; only the buffer that completes a waiting stage's inbox is followed by
/// a small `resume` message, so the stage runs in this color's own handler (and load). Per cycle
/// that turns up to 45 messages a color into at most 3.
///
/// A neighbour may be a stage ahead (it runs on another rank, or got the broadcast first), so
/// each exchange has its own inbox, kept until this color reaches that stage. Buffers are applied
/// in the kernel's fixed order, never in arrival order. Between phases every inbox is empty, so
/// a color migrates and checkpoints as its domain alone.
#include "tessera/lulesh/domain.hpp"

#include <tessera/tessera.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::lulesh {

class Color : public collections::Element<Color, 3> {
 public:
  /// The name checkpoints record for this type and a restart checks.
  static constexpr std::string_view checkpoint_tag = "lulesh.Color";

  Color() = default;
  Color(const collections::Index3D& idx, const Problem& problem);

  /// Broadcast once before the first cycle: sums the nodal mass over shared nodes.
  void exchange_mass();
  /// Broadcast once per cycle with the minimum of every domain's dt_bound().
  void cycle(Real global_bound);
  /// A neighbour's buffer for `exchange`, sent from direction `from` (as this color sees it).
  void ghosts(std::uint8_t exchange, std::uint8_t from, std::span<const std::byte> values);
  /// Sent by a neighbour on this rank that packed the last buffer of `exchange` straight into
  /// this color's inbox: the stage waiting on it can run (charged to this color, not to it).
  void resume(std::uint8_t exchange);

  const Domain& domain() const { return domain_; }
  /// Whether the last cycle (or the mass exchange) ran to its end: no stage waits for a buffer.
  bool idle() const { return waiting_ == kIdle; }
  /// What migrating this color moves (bytes): the phase record reports it to the balancers.
  double footprint_bytes() const { return static_cast<double>(domain_.bytes()); }

  template <class Archive>
  void serialize(Archive& archive) {
    archive(domain_);
  }

 private:
  static constexpr std::uint8_t kIdle = 0xff;

  struct Inbox {
    std::array<std::vector<Real>, kDirections> buffers;
    int count = 0;
  };

  // Packs and sends this color's share of `x` to every neighbour it has in that exchange, then
  // waits for x's buffers (which may all be here already).
  void send_and_wait(Exchange x);
  // Runs every stage whose buffers are complete.
  void advance();
  // Whether this color waits on `x` and has every buffer of it.
  bool ready(Exchange x) const;
  collections::Index3D neighbour(int direction) const;

  Domain domain_;
  std::array<Inbox, kExchanges> inbox_;
  std::uint8_t waiting_ = kIdle;   // the exchange this color waits on (kIdle: none)
  std::vector<Real> pack_;         // scratch for one outgoing buffer
};

}  // namespace tessera::lulesh
