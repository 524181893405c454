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
    return Failure{-1, {}};
  }
  trace_.reset();
  return Failure{first_failing, failure.empty() ? "--tessera_trace: another rank could not open its trace file" : failure};
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
