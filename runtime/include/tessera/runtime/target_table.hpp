#pragma once
/// What a runtime holds for the layers above it (resident.hpp): message targets by id, messages
/// held for a target that is not registered yet, services by type, and owned objects.
///
/// A message whose envelope names a target this rank has not registered yet (a collection created
/// collectively, reached by a fast rank's message before this rank created it) is held, and so
/// is every later one for that target while any is held: registering the target releases them
/// in arrival order, ahead of whatever arrives after. The runtime releases them from its next
/// scheduler turn, never from inside the registering call.
///
/// A process that joins a running job at an expand (rank_change.hpp) creates the collectively
/// created targets the running ranks hold (collections, object groups), in their creation order;
/// the ones made and destroyed before it joined, it skips. expect() gives it those targets' ids
/// and types: its next creations take the ids in order, each checked against its type, and
/// ids made after them go on from the running ranks' count.
///
/// Not thread-safe: one per runtime, used by the thread that runs the scheduler.
#include <tessera/runtime/buffer.hpp>
#include <tessera/runtime/resident.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <vector>

namespace tessera::detail {

class TargetTable {
 public:
  TargetTable() = default;
  TargetTable(const TargetTable&) = delete;
  TargetTable& operator=(const TargetTable&) = delete;
  /// Destroys the owned objects in the order they were adopted, while the tables are still there
  /// for their destructors (which may unregister targets and services).
  ~TargetTable() {
    for (auto& object : owned_) object.reset();
  }

  /// A received record held for its target: the sender, the record (envelope and arguments), and
  /// the trace's flow id of the record (0: none).
  struct Held {
    int source;
    Buffer record;
    std::uint64_t flow;
  };

  /// The object registered under `id`, or nullptr.
  Resident* find(std::uint64_t id) const {
    const auto it = targets_.find(id);
    return it == targets_.end() ? nullptr : it->second;
  }
  /// Whether a message for `id` must be held: its target is not registered, or earlier messages
  /// for it are still held.
  bool must_hold(std::uint64_t id) const {
    return targets_.find(id) == targets_.end() || (!held_.empty() && held_.contains(id));
  }
  void hold(std::uint64_t id, Held message) { held_[id].push_back(std::move(message)); }
  /// Registers `object` under `id`; returns whether messages for it are held (take them with
  /// take_held from a later turn).
  bool add(std::uint64_t id, Resident* object) {
    targets_[id] = object;
    if (id <= collective_ids_) types_[id] = typeid(*object).name();
    return held_.contains(id);
  }
  void remove(std::uint64_t id) {
    targets_.erase(id);
    types_.erase(id);
  }
  /// `id` stays registered but is no longer live: a process that joins later does not create it.
  void retire(std::uint64_t id) { types_.erase(id); }
  /// The messages held for `id`, in arrival order, no longer held.
  std::vector<Held> take_held(std::uint64_t id) {
    const auto it = held_.find(id);
    if (it == held_.end()) return {};
    std::vector<Held> held = std::move(it->second);
    held_.erase(it);
    return held;
  }

  /// Keeps `object` alive as long as the table (collections, object group instances).
  void adopt(std::unique_ptr<Resident> object) { owned_.push_back(std::move(object)); }
  /// A new id for a collectively created target: the same on every rank when every rank creates
  /// its targets in the same order.
  /// In a joined process, the running ranks' live targets' ids first (expect()).
  std::uint64_t next_collective_id() {
    if (expected_.empty()) return ++collective_ids_;
    LiveTarget next = std::move(expected_.front());
    expected_.pop_front();
    claimed_[next.id] = std::move(next.type);
    return next.id;
  }

  /// A collectively created target: its id and its type's name (typeid, mangled), as registered.
  struct LiveTarget {
    std::uint64_t id = 0;
    std::string type;
  };
  /// The collectively created targets registered here, in creation order, and the count of
  /// collective ids made, for a process that joins: bytes that expect() reads.
  std::vector<std::byte> live_state() const;
  /// In a process that joins: the running ranks' live_state(). Fatal when it does not decode.
  void expect(std::span<const std::byte> live_state);
  /// The type registered under `id` if it differs from what the running ranks hold under it
  /// (a joined process creating its targets in another order); nullopt when it matches or `id`
  /// was not expected. Checks each expected id once.
  std::optional<LiveTarget> type_mismatch(std::uint64_t id);
  /// The running ranks' live targets a joined process has not created yet.
  const std::deque<LiveTarget>& still_expected() const { return expected_; }

  /// The service registered under `key` (one per type, hooks.hpp), or nullptr.
  Resident* service(const ServiceKey* key) const {
    const auto it = services_.find(key);
    return it == services_.end() ? nullptr : it->second;
  }
  /// Registers `service` under `key`; nullptr unregisters.
  void set_service(const ServiceKey* key, Resident* service) {
    if (service != nullptr) services_[key] = service;
    else services_.erase(key);
  }

 private:
  std::unordered_map<std::uint64_t, Resident*> targets_;
  std::unordered_map<std::uint64_t, std::vector<Held>> held_;
  std::unordered_map<const ServiceKey*, Resident*> services_;
  std::uint64_t collective_ids_ = 0;
  std::unordered_map<std::uint64_t, std::string> types_;  // of the collectively created targets
  std::deque<LiveTarget> expected_;                        // a joined process's targets to create
  std::unordered_map<std::uint64_t, std::string> claimed_; // ids given out -> types, until checked
  std::vector<std::unique_ptr<Resident>> owned_;
};

}  // namespace tessera::detail
