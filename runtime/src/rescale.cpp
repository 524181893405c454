// Runtime::rescale and the end of a process whose run changed its rank set (rank_change.hpp).
#include <tessera/runtime/runtime.hpp>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace tessera {

RankChange RankChange::shrink(int size, std::span<const int> leaving) {
  RankChange change;
  change.old_size = size;
  change.new_rank_of.assign(static_cast<std::size_t>(size), 0);
  for (int r : leaving) {
    if (r < 0 || r >= size)
      throw std::invalid_argument("rank " + std::to_string(r) + " cannot leave: the run has ranks 0.." +
                                  std::to_string(size - 1));
    if (change.new_rank_of[static_cast<std::size_t>(r)] < 0)
      throw std::invalid_argument("rank " + std::to_string(r) + " is named twice");
    change.new_rank_of[static_cast<std::size_t>(r)] = -1;
  }
  for (int r = 0; r < size; ++r) {
    if (change.new_rank_of[static_cast<std::size_t>(r)] < 0) continue;
    change.new_rank_of[static_cast<std::size_t>(r)] = change.new_size++;
    change.old_rank_of.push_back(r);
  }
  if (change.new_size == 0) throw std::invalid_argument("every rank would leave: at least one must stay");
  return change;
}

RescaleTimes Runtime::rescale(const RankChange& change) {
  const auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  RescaleTimes times;
  if (left_) fatal("rescale on rank {}, which left the run at an earlier rescale", rank_);
  if (change.old_size != size_ || change.new_rank_of.size() != static_cast<std::size_t>(size_))
    fatal("rescale from {} ranks on a runtime of {}", change.old_size, size_);
  if (tracer_ != nullptr) fatal("rescale with --tessera_trace: a trace cannot follow a change of the rank set yet");
  drain();
  const auto handover = std::chrono::steady_clock::now();
  for (RescaleListener* listener : std::vector<RescaleListener*>(rescale_listeners_)) listener->before_cut(change);
  drain();
  times.handover_s = seconds_since(handover);
  const auto cut = std::chrono::steady_clock::now();
  const int next_rank = change.new_rank_of[static_cast<std::size_t>(rank_)];
  // Every rank takes its transports down together: a node's rings are released collectively.
  transport_.reset();
  MPI_Comm next = MPI_COMM_NULL;
  MPI_Comm_split(comm_, next_rank < 0 ? MPI_UNDEFINED : 0, rank_, &next);
  MPI_Comm_free(&comm_);
  ++rescales_;
  if (next_rank < 0) {
    log_->info("left the run at rescale {} ({} -> {} ranks)", rescales_, change.old_size, change.new_size);
    left_ = true;
    comm_ = MPI_COMM_NULL;
    size_ = 0;
    times.cut_s = seconds_since(cut);
    return times;
  }
  const int old_rank = rank_;
  comm_ = next;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  if (rank_ != next_rank || size_ != change.new_size)
    fatal("rescale: rank {} became {} of {}, expected {} of {}", old_rank, rank_, size_, next_rank, change.new_size);
  nodes_ = NodeMap::of(comm_);
  try {
    transport_ = make_transport(comm_, transport_options_);
  } catch (const Error& e) {
    fatal("rescale: the transports could not be built again on {} ranks: {}", size_, e.what());
  }
  outbox_.attach(*transport_, rank_, size_, flags_.coalesce_bytes);
  // The sums of the old communicator included the ranks that left: count again from the cut, a
  // point of quiescence.
  quiescent_sums_[0] = quiescent_sums_[1] = ~0ull;
  drain_base_[0] = outbox_.total_sent();
  drain_base_[1] = total_handled_;
  log_->set_pattern(fmt::format("[%H:%M:%S.%e] [tessera rank {}] [%l] %v", rank_));
  for (RescaleListener* listener : std::vector<RescaleListener*>(rescale_listeners_)) listener->after_cut(change);
  times.cut_s = seconds_since(cut);
  return times;
}

void Runtime::wait_for_every_process() {
  // MPI_Finalize waits for every process of the job; a rank that left long before the others would
  // wait there, and Open MPI's wait polls. A non-blocking barrier of the original communicator,
  // tested between naps, holds the process at the same point without holding a core.
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(origin_, &request);
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  for (int spins = 0; !done; ++spins) {
    if (spins > 100) std::this_thread::sleep_for(std::chrono::milliseconds(left_ ? 5 : 1));
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&origin_);
}

}  // namespace tessera
