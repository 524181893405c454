#pragma once
// The two collections' elements and the messages between them (internal to tessera-soak).
//
// Cells form a 1-D collection, patches a 2-D one; both are Agents: they keep a Ledger, receive
// messages (deliver), pass each on up to its ttl, and on a phase's broadcast (tick) send their own.
// Element ids: cells 0..na-1, patches na + linear id, the 8 SPMD sources after them, then the
// sparks of --dynamic (Peers).
#include "tessera/soak/ledger.hpp"
#include "tessera/soak/driver/options.hpp"

#include <tessera/tessera.hpp>

#include <string_view>

namespace tessera::soak {

struct Peers;

template <class Derived, std::size_t N>
class Agent : public collections::Element<Derived, N> {
 public:
  /// One message of the ledger (the `deliver` handler). Passes it on while its ttl lasts; may
  /// move away after.
  void receive(const Header& h, const std::vector<std::uint8_t>& payload, const Peers& peers);
  /// The phase's broadcast (the `tick` handler): sends this element's `fanout` messages.
  void start_phase(std::uint64_t phase, const Peers& peers);

  Ledger& ledger() { return ledger_; }
  std::uint64_t arrivals() const { return arrivals_; }
  void on_arrived() { ++arrivals_; }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(ledger_, arrivals_);  // leaving_ stays behind: the copy that arrives is not leaving
  }

 private:
  std::uint64_t self(const Peers& peers) const;

  Ledger ledger_;
  std::uint64_t arrivals_ = 0;  // migrations into this element's new rank, over the run
  bool leaving_ = false;        // a migration is posted: ask for no second one
};

// The handlers are the derived types' own members (a pointer to a base member applied to the
// derived type trips GCC's strict-aliasing warning inside the collection's dispatch).
class Cell : public Agent<Cell, 1> {
 public:
  static constexpr std::string_view checkpoint_tag = "soak.Cell";
  void deliver(Header h, std::vector<std::uint8_t> payload, Peers peers);
  void tick(std::uint64_t phase, Peers peers);
};

class Patch : public Agent<Patch, 2> {
 public:
  static constexpr std::string_view checkpoint_tag = "soak.Patch";
  void deliver(Header h, std::vector<std::uint8_t> payload, Peers peers);
  void tick(std::uint64_t phase, Peers peers);
};

/// An element of the dynamic collection (--dynamic): inserted and destroyed as phases go; it
/// receives and passes on messages but has no broadcast of its own.
class Spark : public Agent<Spark, 1> {
 public:
  static constexpr std::string_view checkpoint_tag = "soak.Spark";
  void deliver(Header h, std::vector<std::uint8_t> payload, Peers peers);
};

/// SPMD sources, spread over the ranks (source s on rank s % P).
inline constexpr std::uint64_t kSources = 8;

/// What every message carries besides its header: the collections (as ids) and the knobs its
/// handler needs, so no handler reaches for anything process-wide.
struct Peers {
  collections::CollectionProxy<Cell> a;
  collections::CollectionProxy<Patch> b;
  collections::CollectionProxy<Spark> c;  ///< --dynamic only
  std::uint64_t seed = 0;
  std::uint64_t na = 0;  ///< cells
  std::uint64_t nb = 0;  ///< patches
  std::uint64_t ns = 0;  ///< sparks (0 without --dynamic)
  std::int64_t fanout = 0;
  std::int64_t ttl = 0;
  std::int64_t migrate_one_in = 0;
  std::int32_t inject = 0;       ///< Inject, as an int
  std::uint64_t inject_phase = 0;  ///< the phase whose first SPMD message is injected

  std::uint64_t elements() const { return na + nb; }
  /// The id of SPMD source 0 (source s is first_source() + s).
  std::uint64_t first_source() const { return na + nb; }
  std::uint64_t first_spark() const { return na + nb + kSources; }
  /// Whether spark `i` lives in `phase`: about half do, drawn from the seed.
  bool spark_live(std::uint64_t phase, std::uint64_t i) const { return draw(seed ^ 0x5ba4c, i, phase) % 2 == 0; }
  /// The receiver drawn as `r` in `phase`: a cell or patch, or (--dynamic) a spark live then.
  std::uint64_t receiver(std::uint64_t r, std::uint64_t phase) const {
    if (ns == 0) return r % elements();
    const std::uint64_t pick = r % (elements() + ns);
    if (pick < elements()) return pick;
    return spark_live(phase, pick - elements()) ? first_spark() + (pick - elements()) : mix(r) % elements();
  }
  /// The one message --inject acts on: SPMD source 0's first message of inject_phase.
  bool injected(const Header& h) const;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, b, c, seed, na, nb, ns, fanout, ttl, migrate_one_in, inject, inject_phase);
  }
};

/// The sequence number of the k-th message a sender starts in `phase` (not passed on from
/// another): below 2^63, unlike those of messages passed on (see deliver()).
inline std::uint64_t root_sequence(std::uint64_t phase, std::uint64_t k) { return (phase << 32) | k; }

/// Makes the payload and checksum of `h`, records it in `ledger` as sent, and sends it to its
/// receiver (twice, or corrupted, when it is the --inject message).
void post(Ledger& ledger, Header h, const Peers& peers);

}  // namespace tessera::soak
