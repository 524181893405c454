#include <tessera/runtime/trace_session.hpp>

#include <tessera/runtime/error.hpp>

#include <spdlog/spdlog.h>

#include <filesystem>

namespace tessera::detail {

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
  // One message for the whole job: the lowest failing rank speaks.
  int first_failing = failure.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first_failing, 1, MPI_INT, MPI_MIN, comm);
  if (first_failing == size) {
    dir_ = flags.dir;
    processes_ = size;
    return Failure{-1, {}};
  }
  trace_.reset();
  return Failure{first_failing, failure.empty() ? "--tessera_trace: another rank could not open its trace file" : failure};
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
  int first_failing = failure.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first_failing, 1, MPI_INT, MPI_MIN, comm);
  if (first_failing == size) return Failure{-1, {}};
  return Failure{first_failing,
                 failure.empty() ? "--tessera_trace: a process that joined could not open its trace file" : failure};
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
