#include <tessera/runtime/trace_session.hpp>

#include <tessera/runtime/error.hpp>

#include <spdlog/spdlog.h>

#include <filesystem>

namespace tessera::detail {

namespace {

// One verdict for the whole job: the lowest failing rank speaks (its own message, or `others`
// where a rank failed without one). rank -1: nobody failed.
TraceSession::Failure agree(MPI_Comm comm, int rank, int size, const std::string& failure, const char* others) {
  int first_failing = failure.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first_failing, 1, MPI_INT, MPI_MIN, comm);
  if (first_failing == size) return TraceSession::Failure{-1, {}};
  return TraceSession::Failure{first_failing, failure.empty() ? others : failure};
}

}  // namespace

TraceSession::Failure TraceSession::start(MPI_Comm comm, int rank, int size, const TraceFlags& flags) {
  const ClockOffset offset = align_clock(comm, true);
  std::int64_t origin = trace_clock_ns();
  MPI_Bcast(&origin, 1, MPI_INT64_T, 0, comm);
  std::string failure;
  try {
    trace_ = std::make_unique<Tracer>(flags, rank, size, origin, offset);
  } catch (const Error& e) {
    failure = e.what();
  }
  Failure verdict = agree(comm, rank, size, failure, "--tessera_trace: another rank could not open its trace file");
  if (verdict.rank < 0) {
    dir_ = flags.dir;
    processes_ = size;
  } else {
    trace_.reset();
  }
  return verdict;
}

TraceSession::Failure TraceSession::join(MPI_Comm comm, int rank, int size, int old_size, int rescales,
                                          const TraceFlags& flags) {
  const ClockOffset offset = align_clock(comm, true);  // the running ranks keep the offsets they had
  std::int64_t shared[2] = {trace_ ? trace_->origin_ns() : 0, processes_};
  MPI_Bcast(shared, 2, MPI_INT64_T, 0, comm);
  std::string failure;
  if (trace_) {
    trace_->renumber(rank, size, rescales);
  } else {
    try {
      trace_ = std::make_unique<Tracer>(flags, rank, size, shared[0], offset, static_cast<int>(shared[1]) + rank - old_size);
      trace_->renumber(rank, size, rescales);
      trace_->joined_at(rescales);
      dir_ = flags.dir;
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  processes_ = shared[1] + (size - old_size);
  return agree(comm, rank, size, failure, "--tessera_trace: a process that joined could not open its trace file");
}

void TraceSession::renumber(int rank, int size, int rescales) {
  if (trace_) trace_->renumber(rank, size, rescales);
}

void TraceSession::leave() {
  if (trace_) trace_->close();
}

void TraceSession::finish(MPI_Comm comm, int rank, spdlog::logger& log) {
  if (!trace_) return;
  trace_->close();
  trace_.reset();
  MPI_Barrier(comm);  // every rank's file is complete
  if (rank != 0) return;
  const std::filesystem::path out = std::filesystem::path(dir_) / "trace.json";
  try {
    merge_trace(dir_, out);
  } catch (const Error& e) {
    fatal("--tessera_trace: {}", e.what());
  }
  log.info("trace written to {}", out.string());
}

}  // namespace tessera::detail
