#pragma once
/// Location management for one collection on one rank: where to send a message for an element
/// that is not here.
///
/// Every fact is a pair (rank, version): "the element was on `rank` after its `version`-th
/// migration". A rank learns facts three ways, and always keeps the newest per element:
/// - as the element's home, from the element's arrival announcements (initially version 0 on the
///   home itself);
/// - as a rank the element left, at departure (a forwarding pointer to its destination);
/// - as a sender, from the correction the delivering rank sends after a forwarded message (the
///   sender's cache).
/// A rank with no fact routes to the element's home. Why this never loses a message and always
/// terminates: a rank that once hosted version v and no longer does holds a fact newer than v, so
/// each forwarding hop follows the element's own trajectory to a strictly newer version, and the
/// runtime delivers messages between two ranks in order, so a message forwarded by the rank the
/// element just left arrives after the element itself.
///
/// In a dynamic collection (membership.hpp) a fact may also say "destroyed after `version`
/// migrations" (rank kDestroyed). Only the rank where the element was destroyed and its home
/// hold such facts; a message routed by one goes to the home, which holds it until the index is
/// inserted again (or the phase ends), since the index may have been inserted again already.
#include <cstdint>
#include <functional>
#include <unordered_map>

namespace tessera::collections {

class LocationTable {
 public:
  /// The rank of a fact about a destroyed element.
  static constexpr int kDestroyed = -1;
  struct Fact {
    int rank;
    std::uint64_t version;
    bool destroyed() const { return rank == kDestroyed; }
  };

  /// `home_of(linear id)` is the element's home rank.
  LocationTable(int self, std::function<int(std::uint64_t)> home_of)
      : self_(self), home_of_(std::move(home_of)) {}

  int self() const { return self_; }
  int home(std::uint64_t element) const { return home_of_(element); }

  /// The rank to send a message for `element` to when it is not on this rank: the newest known
  /// fact's rank, else (nothing known, or destroyed) the home.
  int route(std::uint64_t element) const {
    auto it = known_.find(element);
    return it == known_.end() || it->second.destroyed() ? home_of_(element) : it->second.rank;
  }
  /// The newest fact about `element`, or nullptr.
  const Fact* find(std::uint64_t element) const {
    auto it = known_.find(element);
    return it == known_.end() ? nullptr : &it->second;
  }

  /// Records that `element` was on `rank` after `version` migrations, unless a newer fact is
  /// known. Returns true when the fact was new.
  bool learn(std::uint64_t element, int rank, std::uint64_t version);

  std::size_t known_count() const { return known_.size(); }
  /// Calls f(element, fact) for every fact known here, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [element, fact] : known_) f(element, fact);
  }
  /// Forgets every fact and becomes rank `self`: after a rescale, where the homes are new and the
  /// ranks renumbered (the collection then teaches the table its local elements and the facts its
  /// new homes were sent).
  void reset(int self) {
    self_ = self;
    known_.clear();
  }

 private:
  int self_;
  std::function<int(std::uint64_t)> home_of_;
  std::unordered_map<std::uint64_t, Fact> known_;
};

}  // namespace tessera::collections
