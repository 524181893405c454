#pragma once
/// Phase instrumentation: what each element cost during a phase, and who talked to whom.
///
/// One PhaseManager per runtime records, between two collective `end_phase()` calls:
/// - each element's load: the time spent in its handlers on this rank, in seconds, on the wall
///   clock by default or on the thread CPU clock (LoadClock::cpu, `--tessera_lb_load_clock=cpu`)
///   for runs where ranks share cores; split per subphase when the application marks subphases;
/// - communication edges between elements (messages and payload bytes), counted on the rank that
///   delivers them; a message sent from outside any element has its sending rank r, {0, r}, as
///   its source;
/// - the rank's own load: the phase's duration on the same clock minus its elements' loads and
///   minus the time the rank spent waiting for messages (Runtime::idle_seconds), so time in free
///   and object-group handlers and in the application's own code is charged to the rank and not
///   lost, while waiting for other ranks is not.
/// An element that migrates during a phase appears in the records of every rank it ran on, each
/// with the time it spent there (as in vt's LB data).
///
/// The manager is a per-runtime service: tessera::Context installs it (or a program on a bare
/// Runtime calls `install`), and collections find it with `PhaseManager::of(rt)`, so several
/// runtimes in one process never share one. Nothing creates it on first use.
#include <tessera/collections/membership.hpp>
#include <tessera/runtime/runtime.hpp>
#include <tessera/runtime/timer.hpp>

#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <optional>
#include <vector>

namespace tessera::collections {

namespace checkpoint {
class RankFileWriter;
class RestartImage;
}  // namespace checkpoint

enum class LoadClock { wall, cpu };

/// An element of a collection. Collection ids start at 1, so {0, r} names no element but rank r
/// (the current() context outside element handlers is {0, 0}: this rank).
struct ElementKey {
  std::uint64_t collection = 0;
  std::uint64_t element = 0;
  bool is_rank() const { return collection == 0; }
  auto operator<=>(const ElementKey&) const = default;
};

struct ElementKeyHash {
  std::size_t operator()(const ElementKey& key) const noexcept {
    return std::hash<std::uint64_t>{}(key.element * 0x9e3779b97f4a7c15ull ^ key.collection);
  }
};

/// One element's measurements on this rank in one phase.
struct ElementRecord {
  ElementKey key;
  std::vector<std::int64_t> index;
  int home = 0;
  double load = 0.0;                    ///< seconds
  std::vector<double> subphase_loads;   ///< seconds per subphase id 0..n-1 (empty: none marked)
  bool local = true;                    ///< still here at the phase end (false: ran here, then left)
  std::optional<double> footprint_bytes;  ///< what the element reports of its size
                                          ///< (T::footprint_bytes()), when local and it does
};

/// Messages delivered on this rank from `from` to `to` in one phase.
struct EdgeRecord {
  ElementKey from;
  ElementKey to;
  std::int64_t messages = 0;
  double bytes = 0.0;                   ///< argument bytes, excluding the 32-byte envelope
};

/// What one rank measured in one phase.
struct PhaseRecord {
  std::int64_t phase = 0;
  int rank = 0;
  std::vector<ElementRecord> elements;  ///< ascending by key
  std::vector<EdgeRecord> edges;        ///< ascending by (from, to)
  double rank_load = 0.0;               ///< seconds outside element handlers (never negative)
  MembershipCounts membership;          ///< insertions, destructions, dead letters on this rank
};

/// What the phase manager needs from each collection's per-rank manager. A collection is its
/// runtime's message target (resident.hpp), so the runtime can own it.
class CollectionBase : public tessera::detail::Resident {
 public:
  virtual std::uint64_t id() const = 0;
  /// Linear ids of the elements on this rank now, ascending.
  virtual std::vector<std::uint64_t> local_elements() const = 0;
  virtual std::vector<std::int64_t> index_of(std::uint64_t element) const = 0;
  virtual int home_of(std::uint64_t element) const = 0;
  /// The bytes a local element reports it occupies (an element type's optional
  /// `double footprint_bytes() const`: what migrating it moves); nullopt when the type has no
  /// such member or the element is not here.
  virtual std::optional<double> footprint_of(std::uint64_t) const { return std::nullopt; }
  /// Starts moving a local element to `dest` (serialize, send, forget). False if not local.
  virtual bool migrate(std::uint64_t element, int dest) = 0;
  /// Called at global quiescence (in end_phase, after the drain): nothing is in flight and every
  /// element has run every broadcast, so state kept for late arrivals can go.
  virtual void quiescent() {}
  /// This phase's insertions, destructions and dead letters on this rank (dynamic collections);
  /// the counts start again from zero.
  virtual MembershipCounts take_membership_counts() { return {}; }

  // Split and merge at a balancing (lb/reshape.hpp): dynamic collections whose element type has
  // split(), or merge_into() and merge() (element.hpp).
  virtual bool splits() const { return false; }
  virtual bool merges() const { return false; }
  /// Splits local element `element`, whose load is `load` seconds, with its type's split(), and
  /// each piece again while its share of the load is above `split_load`, at most `max_depth`
  /// levels; the pieces are inserted on this rank (they are live once the ranks drain). Returns
  /// each piece's linear id and share of the load; empty when the element is not here or split()
  /// gave fewer than two pieces.
  virtual std::vector<std::pair<std::uint64_t, double>> split_local(std::uint64_t, double, double, int) { return {}; }
  /// The linear id local `element` would merge into with its siblings (its type's merge_into()),
  /// or nullopt.
  virtual std::optional<std::uint64_t> merge_target(std::uint64_t) const { return std::nullopt; }
  /// Merges local elements `group` (ascending, each naming `into`) with its type's merge() into
  /// one inserted on this rank at `into`, destroying them. False when merge() declined.
  virtual bool merge_local(std::uint64_t, const std::vector<std::uint64_t>&) { return false; }

  // A change of the rank set (runtime/rank_change.hpp), at quiescence.
  /// Old numbering, every rank: tells each element's home under `change.new_size` ranks where the
  /// element will be, and each destroyed element's version (messages, drained before the cut).
  virtual void before_cut(const RankChange&) {}
  /// New numbering, staying ranks: renumbers what the collection holds.
  virtual void after_cut(const RankChange&) {}

  // Checkpoint and restart (checkpoint/checkpoint.hpp).
  /// Creation order among this runtime's collections, from 0: what matches a collection to its
  /// record in a checkpoint.
  virtual std::uint64_t ordinal() const = 0;
  /// The element type's stable name (`T::checkpoint_tag`, else the compiler's name of T).
  virtual std::string type_tag() const = 0;
  /// Bounds per dimension.
  virtual std::vector<std::int64_t> shape() const = 0;
  /// Writes every local element's state, in ascending linear id. At quiescence only.
  virtual void write_elements(checkpoint::RankFileWriter& writer) const = 0;
};

class PhaseManager : public RescaleListener, public tessera::detail::Resident {
 public:
  PhaseManager(Runtime& rt, LoadClock clock);
  ~PhaseManager() override;

  /// This runtime's manager. Fatal if none was installed.
  static PhaseManager& of(Runtime& rt);
  /// Creates this runtime's manager with `clock`, owned by the runtime. Fatal if one exists.
  static PhaseManager& install(Runtime& rt, LoadClock clock);

  Runtime& runtime() { return rt_; }
  LoadClock clock() const { return clock_; }
  /// The current time on the load clock, seconds.
  double now() const;
  double idle_now() const;  // the runtime's idle time on the load clock
  /// The phase being recorded: 0 until the first end_phase().
  std::int64_t phase() const { return phase_; }

  /// Charges handler time from now on to subphase `id` (>= 0) until the next call or the end of
  /// the phase, which resets it to 0. Local to this rank.
  void set_subphase(int id);
  int subphase() const { return subphase_; }

  /// The element whose handler is running, or the rank ({0, 0}).
  ElementKey current() const { return current_; }

  /// Times one handler of `element`: charged to it and to the current subphase on destruction.
  class Scope {
   public:
    Scope(PhaseManager& manager, ElementKey element)
        : manager_(manager), previous_(manager.current_), start_(manager.ticks()) {
      manager_.current_ = element;
      if (manager_.rt_.tracer() != nullptr) [[unlikely]]
        manager_.trace_begin(element);
    }
    ~Scope() {
      if (manager_.rt_.tracer() != nullptr) [[unlikely]]
        manager_.trace_end();
      manager_.charge(manager_.current_, manager_.ticks() - start_);
      manager_.current_ = previous_;
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseManager& manager_;
    ElementKey previous_;
    double start_;  // ticks of the handler clock
  };

  /// Counts one delivered message of `bytes` argument bytes from `from` to `to`.
  void record_edge(ElementKey from, ElementKey to, std::size_t bytes);

  void attach(CollectionBase* collection);
  void detach(std::uint64_t collection);
  CollectionBase* find(std::uint64_t collection) const;
  /// Live collections on this rank by id (ascending id is creation order).
  const std::map<std::uint64_t, CollectionBase*>& collections() const { return collections_; }
  /// The ordinal of a collection being created (CollectionBase::ordinal).
  std::uint64_t next_ordinal() { return created_++; }

  /// The checkpoint the collections created from now on are restored from (nullptr: none).
  void set_restart(std::shared_ptr<checkpoint::RestartImage> image) { restart_ = std::move(image); }
  checkpoint::RestartImage* restart() const { return restart_.get(); }
  /// Continues the phase numbering at `phase` (a restart continues the checkpoint's). Before the
  /// first phase ends only.
  void resume_at(std::int64_t phase) { phase_ = phase; }

  /// Moves a local element to `dest`; false when it is not on this rank. Call drain() (or end
  /// the phase) to complete the moves.
  bool migrate(ElementKey element, int dest);

  /// Collective: waits for global quiescence, closes the phase and returns this rank's record,
  /// then starts the next phase.
  PhaseRecord end_phase();

  /// Passes a rescale on to every collection, in creation order.
  void before_cut(const RankChange& change) override;
  void after_cut(const RankChange& change) override;
  /// At an expand: the phase number, which a joining process's phase manager continues.
  void join_state(JoinState& state) const override;

 private:
  struct Load {
    double total = 0.0;
    std::vector<double> subphases;
  };
  struct Traffic {
    std::int64_t messages = 0;
    double bytes = 0.0;
  };

  // Handler times are taken on a cheaper clock than now() and converted to seconds when the
  // phase closes (phase.cpp says how); charge() accumulates those ticks. Both run twice per
  // element message, so they are inline.
  double ticks() const {
    return tsc_ ? read_tsc() : now();
  }
  double seconds_per_tick() const;
  void charge(ElementKey element, double ticks);
  void trace_begin(ElementKey element);
  void trace_end();
  PhaseRecord close();

  Runtime& rt_;
  LoadClock clock_;
  std::int64_t phase_ = 0;
  int subphase_ = 0;
  bool subphases_marked_ = false;
  ElementKey current_{};
  double phase_start_ = 0.0;
  double phase_start_ticks_ = 0.0;
  bool tsc_ = false;  // the handler clock is the invariant TSC (wall-clock loads on x86)
  double idle_start_ = 0.0;  // the runtime's idle time, on the load clock, when the phase began
  std::unordered_map<ElementKey, Load, ElementKeyHash> loads_;
  // The entries the last charge and the last edge went to: handlers of one element and messages
  // along one edge tend to come in runs, and a map's nodes stay put until it is cleared.
  ElementKey last_charged_{};
  Load* last_load_ = nullptr;
  std::pair<ElementKey, ElementKey> last_edge_{};
  Traffic* last_traffic_ = nullptr;
  struct EdgeHash {
    std::size_t operator()(const std::pair<ElementKey, ElementKey>& edge) const noexcept {
      return ElementKeyHash{}(edge.first) * 31 ^ ElementKeyHash{}(edge.second);
    }
  };
  std::unordered_map<std::pair<ElementKey, ElementKey>, Traffic, EdgeHash> edges_;  // sorted at close
  std::map<std::uint64_t, CollectionBase*> collections_;
  std::uint64_t created_ = 0;
  std::shared_ptr<checkpoint::RestartImage> restart_;
};

}  // namespace tessera::collections
