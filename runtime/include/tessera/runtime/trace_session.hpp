#pragma once
/// One run's timeline trace (--tessera_trace=DIR) from start to merge: the collective start-up
/// (clock alignment, a common origin, every rank's file opened or one verdict for all) and the
/// collective end (files closed, rank 0 merging them into DIR/trace.json).
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

  /// The trace, or nullptr when tracing is off or finished.
  Tracer* tracer() const { return trace_.get(); }

 private:
  std::unique_ptr<Tracer> trace_;
  std::string dir_;
};

}  // namespace tessera::detail
