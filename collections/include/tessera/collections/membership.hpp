#pragma once
/// Dynamic membership: elements inserted into and destroyed from a running collection, from any
/// rank at any time inside a phase (vt's dynamic collections; Charm++'s ckInsert and ckDestroy).
///
///   auto blocks = make_dynamic_collection<Block>(rt, Index3D{64, 64, 64});   // collective, empty
///   blocks[{3, 1, 4}].insert(level, data);        // constructed at its home as Block(idx, level, data)
///   blocks[{3, 1, 5}].insert_at(2, level, data);  // constructed on rank 2
///   blocks[{3, 1, 4}].destroy();                  // wherever it is by then
///
/// The home decides. An insertion travels to the index's home (no message when the caller is
/// the home), which records the new element's location and version before anyone else can know
/// of it, then builds the element itself or sends the construction to the chosen rank. Nothing
/// is broadcast: the home is the one rank that must learn of an element, as for migrations
/// (location.hpp). The new element's version is one more than the last fact the home held
/// about the index, so an index destroyed and inserted again is newer than every fact about
/// its earlier life, and forwarding still follows strictly newer facts.
///
/// What happens to a message (or a destroy) for an index that is not live: it goes to the
/// index's home, which holds it and delivers it, in arrival order, once an insertion of that
/// index arrives. That covers a message sent by a rank that heard of a new element sooner than
/// its home did, and one racing an index's insertion again after a destruction: the rank that
/// destroyed an element keeps a "destroyed" fact and sends it to the home before anything else
/// it forwards there, so the home never mistakes a destroyed element for a live one. An
/// insertion of an index the home believes live is held the same way until the home learns of
/// the destruction. At the end of the phase (global quiescence: no insertion is in flight)
/// whatever is still held is a *dead letter*: counted, and logged with the collection and the
/// index (the first kLoggedDeadLetters on each rank and collection; the rest are only counted),
/// never run and never a crash. A message to an element destroyed for good is therefore
/// reported when its phase ends, and its bytes are kept at the home until then.
/// A held message counts as delivered for termination detection and its epoch; when it runs
/// later, it runs in the epoch of the message or code that released it (an insertion, or the
/// "destroyed" fact a destruction sends to the home, which is counted for that reason), and
/// what it sends belongs to that epoch. Its own epoch may have ended by then, or may end at any
/// moment, since this rank is no longer engaged in it.
///
/// Destroying runs like a message to the element (forwarded after it when it moves); the
/// element's `on_destroy()` runs first when the type has one. Insertions and destructions are
/// counted per phase in the phase record (phase.hpp), hence in the LB data and the phase log.
/// A new element runs the broadcasts that reach its rank after its construction, not those that
/// passed before it.
#include <tessera/runtime/envelope.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera {
class Runtime;
}

namespace tessera::collections {

/// Insertions, destructions and dead letters on one rank.
struct MembershipCounts {
  std::int64_t inserted = 0;
  std::int64_t destroyed = 0;
  std::int64_t dead_letters = 0;
  MembershipCounts& operator+=(const MembershipCounts& other) {
    inserted += other.inserted;
    destroyed += other.destroyed;
    dead_letters += other.dead_letters;
    return *this;
  }
};

/// One dynamic collection's held messages and counters on one rank.
class Membership {
 public:
  static constexpr std::int64_t kLoggedDeadLetters = 16;

  /// A message kept at the home until its element's insertion (or, for an insertion, until the
  /// element it would replace is known destroyed): re-run through its own invoker.
  struct Held {
    detail::Invoker invoker;
    Envelope envelope;
    std::vector<std::byte> payload;
  };

  void hold(std::uint64_t element, detail::Invoker invoker, const Envelope& envelope,
            std::span<const std::byte> payload);
  /// Takes the messages held for `element`, in arrival order.
  std::vector<Held> release(std::uint64_t element);
  std::size_t held() const { return held_count_; }

  /// Runs each released message again through its invoker, in the current epoch (the
  /// releaser's), in arrival order.
  static void replay(Runtime& rt, std::vector<Held>& messages);

  /// Counts and logs one dead letter: `what` says which message and why ("... was destroyed").
  void dead_letter(Runtime& rt, std::uint64_t collection, const std::string& index, std::string_view what);
  /// At global quiescence: every held message becomes a dead letter. `index_of` names an element.
  template <class IndexText>
  void expire(Runtime& rt, std::uint64_t collection, IndexText&& index_of) {
    auto held = std::move(held_);
    held_.clear();
    held_count_ = 0;
    for (auto& [element, messages] : held)
      for (std::size_t i = 0; i < messages.size(); ++i)
        dead_letter(rt, collection, index_of(element), "was not live (destroyed, or never inserted) when its phase ended");
  }

  void count_insert() { ++phase_.inserted, ++total_.inserted; }
  void count_destroy() { ++phase_.destroyed, ++total_.destroyed; }
  /// This phase's counts, which start again from zero.
  MembershipCounts take_phase() { return std::exchange(phase_, {}); }
  /// Counts since the collection was created.
  const MembershipCounts& total() const { return total_; }

 private:
  std::unordered_map<std::uint64_t, std::vector<Held>> held_;
  std::size_t held_count_ = 0;
  MembershipCounts phase_;
  MembershipCounts total_;
  std::int64_t logged_ = 0;
};

}  // namespace tessera::collections
