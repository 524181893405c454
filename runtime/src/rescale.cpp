// Runtime::rescale, a process joining at an expand, and the end of a process whose run changed
// its rank set (rank_change.hpp).
#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/runtime.hpp>

#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <cxxabi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <typeinfo>
#include <string_view>
#include <thread>

namespace tessera {
namespace {

constexpr std::string_view kJoinedFlag = "--tessera_elastic_joined";

// The JoinState on the wire: per key, its length, the key, the value's length, the value.
void put_bytes(std::vector<std::byte>& out, const void* data, std::uint64_t length) {
  const auto* begin = static_cast<const std::byte*>(data);
  const std::uint64_t header = length;
  const auto* h = reinterpret_cast<const std::byte*>(&header);
  out.insert(out.end(), h, h + sizeof header);
  out.insert(out.end(), begin, begin + length);
}

std::vector<std::byte> encode_join_state(const JoinState& state) {
  std::vector<std::byte> out;
  for (const auto& [key, value] : state) {
    put_bytes(out, key.data(), key.size());
    put_bytes(out, value.data(), value.size());
  }
  return out;
}

JoinState decode_join_state(std::span<const std::byte> in) {
  JoinState state;
  std::size_t at = 0;
  const auto take = [&in, &at]() {
    std::uint64_t length = 0;
    if (in.size() - at < sizeof length) fatal("a joining process received a truncated join state");
    std::memcpy(&length, in.data() + at, sizeof length);
    at += sizeof length;
    if (in.size() - at < length) fatal("a joining process received a truncated join state");
    const std::span<const std::byte> bytes = in.subspan(at, length);
    at += length;
    return bytes;
  };
  while (at < in.size()) {
    const std::span<const std::byte> key = take();
    const std::span<const std::byte> value = take();
    state[std::string(reinterpret_cast<const char*>(key.data()), key.size())].assign(value.begin(), value.end());
  }
  return state;
}

// The JoinState goes from running rank 0 to each new process over the merged communicator,
// before the runtime's transports use it.
constexpr int kJoinStateTag = 0x7e55;

// Waits for `request` without holding a core: a new process may wait here for many phases, on
// a node whose cores the running ranks use.
void wait_napping(MPI_Request& request, std::chrono::milliseconds nap) {
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  for (int spins = 0; !done; ++spins) {
    if (spins > 100) std::this_thread::sleep_for(nap);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

void hand_over(MPI_Comm merged, int old_size, int new_size, const JoinState& state) {
  std::vector<std::byte> bytes = encode_join_state(state);
  std::uint64_t length = bytes.size();
  for (int r = old_size; r < new_size; ++r) {
    MPI_Send(&length, 1, MPI_UINT64_T, r, kJoinStateTag, merged);
    MPI_Send(bytes.data(), static_cast<int>(length), MPI_BYTE, r, kJoinStateTag, merged);
  }
}

JoinState take_over(MPI_Comm merged) {
  std::uint64_t length = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Irecv(&length, 1, MPI_UINT64_T, 0, kJoinStateTag, merged, &request);
  wait_napping(request, std::chrono::milliseconds(1));
  std::vector<std::byte> bytes(length);
  MPI_Recv(bytes.data(), static_cast<int>(length), MPI_BYTE, 0, kJoinStateTag, merged, MPI_STATUS_IGNORE);
  return decode_join_state(bytes);
}

struct RuntimeJoinState {
  std::int32_t rescales = 0;
  std::int32_t home_ranks = 0;
  std::uint64_t collectives = 0;  // Collectives::next_sequence
  std::int32_t running = 0;       // ranks before the expand
};

}  // namespace

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

RankChange RankChange::expand(int size, int joining) {
  if (joining < 1) throw std::invalid_argument("an expand adds at least one process, not " + std::to_string(joining));
  RankChange change;
  change.old_size = size;
  change.new_size = size + joining;
  for (int r = 0; r < size; ++r) {
    change.new_rank_of.push_back(r);
    change.old_rank_of.push_back(r);
  }
  change.old_rank_of.resize(static_cast<std::size_t>(change.new_size), -1);
  return change;
}

void Runtime::turn_away(MPI_Comm merged, int old_size, int rank) {
  int new_size = 0;
  MPI_Comm_size(merged, &new_size);
  if (rank == 0) hand_over(merged, old_size, new_size, JoinState{});
}

bool Runtime::started_by_expand(int argc, char** argv) {
  for (int i = 1; i < argc && argv[i] != nullptr; ++i)
    if (argv[i] == kJoinedFlag) return true;
  return false;
}

int Runtime::join_running_job(bool marked) {
  if (!marked) return 0;
  MPI_Comm parent = MPI_COMM_NULL;
  MPI_Comm_get_parent(&parent);
  if (parent == MPI_COMM_NULL)
    throw Error(std::string(kJoinedFlag) + " is set by an expand on the processes it starts; this process was not started by one");
  // The merges come first, as soon as this process is up: the running ranks make them while
  // their phases go on (context_elastic.cpp), and hand over their state at a later phase end.
  MPI_Intercomm_merge(parent, 1, &comm_);
  MPI_Comm_dup(comm_, &joined_app_comm_);
  joined_state_ = take_over(comm_);
  if (joined_state_.empty()) {
    // Turned away (turn_away): the run ended while this process was starting. Nothing of it
    // was built yet; it ends as a process of a finished job does.
    MPI_Comm_free(&joined_app_comm_);
    MPI_Comm_free(&comm_);
    MPI_Finalize();
    std::_Exit(0);
  }
  RuntimeJoinState mine;
  const std::span<const std::byte> bytes = joined_state("runtime");
  if (bytes.size() != sizeof mine) fatal("a joining process received no runtime state from the running ranks");
  std::memcpy(&mine, bytes.data(), sizeof mine);
  rescales_ = mine.rescales;
  home_ranks_ = mine.home_ranks;
  collectives().continue_at(mine.collectives);
  targets_.expect(joined_state("targets"));
  joined_ = true;
  return mine.running;
}

namespace {

std::string type_name(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && readable ? std::string(readable.get()) : mangled;
}

}  // namespace

void Runtime::check_joined_target(std::uint64_t id, const detail::Resident& object) {
  const std::optional<detail::TargetTable::LiveTarget> expected = targets_.type_mismatch(id);
  if (!expected) return;
  fatal("this process joined the run at rescale {} and created a {} where the running ranks hold a {} (collective id {}): "
        "a joined process creates the collections and object groups the running ranks hold, in the order they created "
        "them, and not the ones they destroyed before it joined",
        rescales_, type_name(typeid(object).name()), type_name(expected->type), id);
}

void Runtime::fail_joined_targets() const {
  const auto& missing = targets_.still_expected();
  std::vector<std::string> named;
  for (const auto& target : missing) named.push_back(fmt::format("{} (collective id {})", type_name(target.type), target.id));
  fatal("this process joined the run at rescale {} and reached its first phase end without creating {} of the collections "
        "and object groups the running ranks hold: {}; a joined process creates every one of them, in the order they were "
        "created, before its first phase end",
        rescales_, missing.size(), fmt::join(named, ", "));
}

std::span<const std::byte> Runtime::joined_state(const std::string& key) const {
  const auto it = joined_state_.find(key);
  return it == joined_state_.end() ? std::span<const std::byte>() : std::span<const std::byte>(it->second);
}

RescaleTimes Runtime::rescale(const RankChange& change, MPI_Comm merged, JoinState handed) {
  const auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  RescaleTimes times;
  if (left_) fatal("rescale on rank {}, which left the run at an earlier rescale", rank_);
  if (change.old_size != size_ || change.new_rank_of.size() != static_cast<std::size_t>(size_))
    fatal("rescale from {} ranks on a runtime of {}", change.old_size, size_);
  drain();
  const auto handover = std::chrono::steady_clock::now();
  TraceSlice quiescence(tracer_, "quiescence");
  for (RescaleListener* listener : std::vector<RescaleListener*>(rescale_listeners_)) listener->before_cut(change);
  drain();
  const bool expand = change.joining() > 0;
  if (expand) {
    if (merged == MPI_COMM_NULL) fatal("rescale: an expand to {} ranks without the communicator merged with the new processes", change.new_size);
    // The new processes wait for this in their start-up, already merged.
    JoinState state = std::move(handed);
    RuntimeJoinState mine{rescales_ + 1, home_ranks_, collectives().next_sequence(), size_};
    const auto* raw = reinterpret_cast<const std::byte*>(&mine);
    state["runtime"].assign(raw, raw + sizeof mine);
    state["targets"] = targets_.live_state();
    for (const RescaleListener* listener : rescale_listeners_) listener->join_state(state);
    if (rank_ == 0) hand_over(merged, change.old_size, change.new_size, state);
  }
  times.handover_s = seconds_since(handover);
  quiescence.end();
  const auto cut = std::chrono::steady_clock::now();
  const int next_rank = change.new_rank_of[static_cast<std::size_t>(rank_)];
  TraceSlice cut_slice(tracer_, expand ? "merge" : "cut");
  if (next_rank < 0) {
    // A leaving rank's trace ends here, before the split below lets the others go on (and one
    // day merge the files): its last slice is the cut's start.
    cut_slice.end();
    trace_.leave();
  }
  // Every rank takes its transports down together: a node's rings are released collectively.
  transport_.reset();
  MPI_Comm next = MPI_COMM_NULL;
  if (expand) next = merged;
  else MPI_Comm_split(comm_, next_rank < 0 ? MPI_UNDEFINED : 0, rank_, &next);
  MPI_Comm_free(&comm_);
  ++rescales_;
  if (!expand) home_ranks_ = change.new_size;
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
  // The same collectives, in the same order, as a joining process's start-up.
  nodes_ = NodeMap::of(comm_);
  configure_idle();
  if (expand && tracer_ != nullptr) {
    // The new processes' start-up makes the same call after configure_idle (runtime.cpp).
    const auto failure = trace_.join(comm_, rank_, size_, change.old_size, rescales_, TraceFlags{});
    if (failure.rank >= 0) fatal("rescale: {}", failure.message);
  } else {
    trace_.renumber(rank_, size_, rescales_);
  }
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
  wait_napping(request, std::chrono::milliseconds(left_ ? 5 : 1));
  MPI_Comm_free(&origin_);
}

}  // namespace tessera
