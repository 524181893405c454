#pragma once
/// A change of a runtime's rank set at a phase end (an elastic shrink or expand), and how the
/// layers above the runtime follow it.
///
/// Runtime::rescale(change) is collective over the old communicator, at global quiescence:
///  1. it drains, then calls every listener's before_cut(change) in registration order (the same
///     order on every rank, since layers register collectively). Ranks still have their old
///     numbers and may send: a collection tells each element's home under the new rank count
///     where the element is;
///  2. it drains again, takes the transports down (collectively: the shared-memory rings of a
///     node are released together), and splits the communicator: the ranks that stay keep their
///     order and are renumbered 0..new_size-1;
///  3. on the ranks that stay it builds the node map, the transports and the outbox for the new
///     communicator and calls every listener's after_cut(change), where they renumber what they
///     hold. A rank that leaves gets no after_cut: its runtime is left() and sends nothing again.
/// Listeners' before_cut may use blocking MPI collectives on Runtime::comm() (every rank is at
/// the same point); after_cut must not send to old rank numbers.
///
/// An expand (RankChange::expand) adds processes that MPI_Comm_spawn started: the old ranks keep
/// their numbers and the new ones follow them. The caller has already merged the communicator
/// with theirs (MPI_Intercomm_merge, possibly on a helper thread while phases ran). Between
/// steps 1 and 2, rank 0 hands the new processes a JoinState (each listener's join_state under
/// its own key), and the merged communicator replaces the old one instead of a split. A new
/// process's Runtime finds its parent at start-up (argv holds `--tessera_elastic_joined`), makes
/// the same merge (and a duplicate for the application), waits for the JoinState without holding
/// a core, and joins the rebuild; its layers read their keys from Runtime::joined_state as they
/// are built. Elements'
/// homes stay on the ranks that were homes before (Runtime::home_ranks): nothing about where an
/// element is has to move, and a new rank holds nothing until a balancing moves elements to it.
#include <cstddef>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera {

struct RankChange {
  int old_size = 0;
  int new_size = 0;
  std::vector<int> new_rank_of;  ///< per old rank: its number after the change, -1 when it leaves
  std::vector<int> old_rank_of;  ///< per new rank: its number before, -1 for a process that joins

  bool leaves(int old_rank) const { return new_rank_of.at(static_cast<std::size_t>(old_rank)) < 0; }
  /// How many new processes join (an expand), 0 for a shrink.
  int joining() const { return new_size > old_size ? new_size - old_size : 0; }
  /// The ranks of `leaving` (old numbers) leave a set of `size`; the others keep their order.
  /// Throws std::invalid_argument for a rank outside [0, size), a rank named twice, or every rank.
  static RankChange shrink(int size, std::span<const int> leaving);
  /// `joining` new processes join a set of `size`, as ranks size..size+joining-1. Throws
  /// std::invalid_argument when `joining` is below 1.
  static RankChange expand(int size, int joining);
};

/// What a process joining at an expand must know, by layer ("runtime", "termination", "phases",
/// "context", ...): each value is that layer's own encoding.
using JoinState = std::map<std::string, std::vector<std::byte>>;

/// What Runtime::rescale's steps cost on this rank (seconds on the wall clock).
struct RescaleTimes {
  double handover_s = 0.0;  ///< step 1 and its drains: the listeners' messages before the cut
  double cut_s = 0.0;       ///< steps 2-3 after the last drain: the cut and the rebuild
};

/// What a layer does when its runtime's rank set changes (see the steps above).
class RescaleListener {
 public:
  virtual ~RescaleListener() = default;
  /// Old numbering, every rank (leaving ones included), at quiescence; may send.
  virtual void before_cut(const RankChange&) {}
  /// New numbering, staying ranks only; the runtime's rank(), size() and comm() are the new ones.
  /// A process that joins at an expand gets no after_cut: its layers start from joined_state.
  virtual void after_cut(const RankChange&) {}
  /// At an expand, after before_cut: what a joining process's copy of this layer must know, added
  /// to `state` under this layer's key. Rank 0's state is the one handed over.
  virtual void join_state(JoinState&) const {}
};

}  // namespace tessera
