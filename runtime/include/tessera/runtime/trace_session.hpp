#pragma once
/// One run's timeline trace (--tessera_trace=DIR) from start to merge: the collective start-up
/// (clock alignment, a common origin, every rank's file opened or one verdict for all) and the
/// collective end (files closed, rank 0 merging them into DIR/trace.json).
///
/// Through rescales (rank_change.hpp) each process keeps one file, numbered by its rank at the
/// start: a rank that leaves closes its file at the cut, a rank that stays is renumbered (its
/// process in the trace keeps its number and is named "rank 3 -> 2 (rescale 1)"), and processes
/// an expand starts get the next numbers after every one used so far, so the files stay
/// rank.0.json .. rank.<N-1>.json for the merge.
#include <tessera/runtime/trace.hpp>

#include <mpi.h>

#include <memory>
#include <string>

namespace spdlog {
class logger;
}

namespace tessera::detail {

class TraceSession {
 public:
  /// Why the trace could not start, the same on every rank: the lowest failing rank and its message.
  struct Failure {
    int rank = 0;
    std::string message;
  };

  /// Collective over `comm`, before any transport exists (the clock ping-pong uses `comm`
  /// directly). Returns the failure every rank agrees on, or an empty one (rank == -1) on success.
  Failure start(MPI_Comm comm, int rank, int size, const TraceFlags& flags);
  /// Collective: closes this rank's file, waits for every rank's, and merges them on rank 0.
  /// A merge that fails is fatal on rank 0 (the files are complete; only the merge is lost).
  void finish(MPI_Comm comm, int rank, spdlog::logger& log);

  /// Collective over `comm` right after an expand's merge, on the running ranks (tracing) and
  /// the new processes (`flags` their trace flags) alike: the new processes align their clocks
  /// to rank 0's, take the run's origin and the next process numbers, and open their files;
  /// every running rank is renumbered. `old_size`: the ranks before the expand. Returns the
  /// failure every rank agrees on, as start() does.
  Failure join(MPI_Comm comm, int rank, int size, int old_size, int rescales, const TraceFlags& flags);
  /// A rank that stays at a shrink: its rank and size after the cut.
  void renumber(int rank, int size, int rescales);
  /// A rank that leaves at a rescale: closes its file (before the cut, so that the ranks that
  /// stay never merge a file still being written). The Tracer lives on, recording nothing.
  void leave();

  /// The trace, or nullptr when tracing is off or finished.
  Tracer* tracer() const { return trace_.get(); }

 private:
  std::unique_ptr<Tracer> trace_;
  std::string dir_;
  std::int64_t processes_ = 0;  // process numbers used so far (files rank.0 .. rank.<processes_ - 1>)
};

}  // namespace tessera::detail
