#include "storage.hpp"

#include "raw_io.hpp"

#include <tessera/collections/checkpoint/checksum.hpp>
#include <tessera/tessera.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

namespace tessera::bench::checkpoint {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// What the checkpoint stores as the application's state: enough for the restart to check it got
// this run's checkpoint back.
struct AppState {
  std::uint64_t elements = 0;
  std::uint64_t values = 0;
  bool operator==(const AppState&) const = default;
};

// argv for a Context: the program name (checkpoint and restart must agree on it), the --tessera_
// flags of the command line, and this Context's own.
class ContextArgs {
 public:
  ContextArgs(const Setup& setup, const std::vector<std::string>& extra) : storage_{setup.program} {
    storage_.insert(storage_.end(), setup.tessera_args.begin(), setup.tessera_args.end());
    storage_.insert(storage_.end(), extra.begin(), extra.end());
    for (std::string& s : storage_) pointers_.push_back(s.data());
    pointers_.push_back(nullptr);
    argc_ = static_cast<int>(storage_.size());
    argv_ = pointers_.data();
  }
  int& argc() { return argc_; }
  char**& argv() { return argv_; }

 private:
  std::vector<std::string> storage_;
  std::vector<char*> pointers_;
  int argc_ = 0;
  char** argv_ = nullptr;
};

collections::Index1D bounds(const Setup& setup) {
  return collections::Index1D{static_cast<std::int64_t>(setup.elements)};
}

Tally sum_over_ranks(MPI_Comm comm, const Tally& mine) {
  std::uint64_t v[4] = {mine.elements, mine.values, mine.checksum, mine.mismatches};
  MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_UINT64_T, MPI_SUM, comm);
  return Tally{v[0], v[1], v[2], v[3]};
}

bool all_ranks(MPI_Comm comm, bool mine) {
  int v = mine ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, comm);
  return v == 1;
}

// Runs `f` on every rank at once (after a barrier) and returns the slowest rank's wall time: the
// checkpoint is collective and both ranks write to the same disk, so the pair of ranks is done
// when the slower one is.
template <class F>
double timed(MPI_Comm comm, F&& f) {
  MPI_Barrier(comm);
  const Clock::time_point start = Clock::now();
  f();
  return slowest(comm, seconds_since(start));
}

// Each trial writes new files, as a first checkpoint would: the previous trial's go first, and
// the file system commits their removal (syncfs) before anything is timed.
void remove_previous(const Setup& setup) {
  if (setup.rank == 0) std::filesystem::remove_all(setup.checkpoint_dir());
  std::filesystem::remove(setup.raw_file(setup.rank));
  MPI_Barrier(setup.comm);
  if (setup.rank == 0) {
    const int fd = ::open(setup.work.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      ::syncfs(fd);
      ::close(fd);
    }
  }
  MPI_Barrier(setup.comm);
}

std::vector<std::filesystem::path> all_files(const Setup& setup) {
  std::vector<std::filesystem::path> files = files_under(setup.checkpoint_dir());
  for (int r = 0; r < setup.ranks; ++r) files.push_back(setup.raw_file(r));
  return files;
}

// The fraction of the pages of every file of both sides that is cached, the least (hot) or most
// (cold) that any rank sees.
double resident(const Setup& setup, bool least) {
  Residency all;
  for (const auto& file : all_files(setup)) {
    const Residency r = residency(file);
    all.resident += r.resident;
    all.pages += r.pages;
  }
  double mine = all.pages == 0 ? 0.0 : static_cast<double>(all.resident) / static_cast<double>(all.pages);
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, least ? MPI_MIN : MPI_MAX, setup.comm);
  return mine;
}

// Every file of both sides leaves the page cache (each rank drops them all, so it works whichever
// node holds the pages); the files were fsync'd when written, so every page is clean and goes.
void drop_all(const Setup& setup) {
  MPI_Barrier(setup.comm);
  for (const auto& file : all_files(setup)) drop_from_cache(file);
  MPI_Barrier(setup.comm);
}

// Every file of both sides back into the page cache (after a cold round left some out), each
// read by one rank.
void warm_all(const Setup& setup, std::span<std::byte> buffer) {
  std::vector<std::filesystem::path> files = all_files(setup);
  std::sort(files.begin(), files.end());
  const auto rank = static_cast<std::size_t>(setup.rank), ranks = static_cast<std::size_t>(setup.ranks);
  for (std::size_t i = rank; i < files.size(); i += ranks) raw_read(files[i], buffer);
  MPI_Barrier(setup.comm);
}

// One restart: a new Context given --tessera_restart, which verifies the checkpoint, and the
// collection created again, which restores it. Timed from the Context's construction to the
// collection's return on every rank; the check of every value comes after and is not timed.
double timed_restart(const Setup& setup, const Tally& written, Tally& restored, bool& verified, double& context_s) {
  ContextArgs args(setup, {"--tessera_restart=" + setup.checkpoint_dir().string()});
  MPI_Barrier(setup.comm);
  const Clock::time_point start = Clock::now();
  tessera::Context ctx(args.argc(), args.argv(), setup.comm);
  const double constructed = seconds_since(start);
  // 0 values per element: a collection constructed instead of restored would hold empty vectors
  // and fail the check below, so the benchmark cannot pass by reading nothing.
  auto blocks = collections::make_collection<Block>(ctx.runtime(), bounds(setup), std::uint64_t{0});
  const double mine = seconds_since(start);
  restored = sum_over_ranks(setup.comm, tally(blocks, setup.values, true));
  const AppState expected{setup.elements, setup.values};
  const bool good = ctx.restarted() && ctx.restart_state<AppState>() == expected && restored.mismatches == 0 &&
                    restored.elements == written.elements && restored.values == written.values &&
                    restored.checksum == written.checksum;
  verified = all_ranks(setup.comm, good) && verified;
  blocks.destroy();
  context_s = slowest(setup.comm, constructed);
  return slowest(setup.comm, mine);
}

}  // namespace

double slowest(MPI_Comm comm, double seconds) {
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  return seconds;
}

// Runs the measurements of one round in an order that rotates with the round, so any drift of
// the disk (write-back of the previous side, the host's own cache) spreads over every side.
void rotated(int round, const std::vector<std::function<void()>>& sides) {
  const std::size_t n = sides.size();
  for (std::size_t k = 0; k < n; ++k) sides[(k + static_cast<std::size_t>(round)) % n]();
}

Writes measure_writes(const Setup& setup) {
  Writes out;
  ContextArgs args(setup, {});
  MPI_Barrier(setup.comm);
  const Clock::time_point start = Clock::now();
  tessera::Context ctx(args.argc(), args.argv(), setup.comm);
  out.context_start_s = slowest(setup.comm, seconds_since(start));
  auto blocks = collections::make_collection<Block>(ctx.runtime(), bounds(setup), setup.values);
  out.written = sum_over_ranks(setup.comm, tally(blocks, setup.values, false));
  // The raw side writes the very bytes the elements hold, from where they lie.
  std::vector<std::span<const std::byte>> spans;
  blocks.manager().for_each_local([&](const Block& b) { spans.push_back(std::as_bytes(std::span(b.values))); });
  Buffer state;
  serial::encode(state, AppState{setup.elements, setup.values});

  for (int round = 0; round < setup.warmup + setup.trials; ++round) {
    const bool keep = round >= setup.warmup;
    remove_previous(setup);
    const auto record = [keep](std::vector<double>& into, double s) {
      if (keep) into.push_back(s);
    };
    rotated(round, {[&] {
                      record(out.seconds.raw_s, timed(setup.comm, [&] { raw_write(setup.raw_file(setup.rank), spans); }));
                    },
                    [&] {
                      record(out.seconds.checkpoint_s,
                             timed(setup.comm, [&] { ctx.checkpoint(setup.checkpoint_dir(), state.view()); }));
                    }});
  }
  out.checkpoint_file_bytes = bytes_under(setup.checkpoint_dir());
  blocks.destroy();
  return out;
}

Reads measure_reads(const Setup& setup, const Tally& written) {
  Reads out;
  // dd's one reused buffer, touched before anything is timed.
  std::vector<std::byte> buffer(kRawChunk, std::byte{1});
  const std::filesystem::path mine = setup.raw_file(setup.rank);
  const std::uint64_t mine_bytes = std::filesystem::file_size(mine);
  const auto check_size = [&](std::uint64_t got) {
    if (got != mine_bytes)
      throw std::runtime_error(mine.string() + ": read " + std::to_string(got) + " bytes, wrote " +
                               std::to_string(mine_bytes));
  };
  // Before each measurement of a round: hot, check the files are cached; cold, drop every file
  // of every side and check they went (two sides read the same raw file, so this is per side).
  // A hot round after a cold one reads every file in first.
  const auto prepare = [&](bool cold) {
    if (cold) {
      drop_all(setup);
      out.cold_resident = std::max(out.cold_resident, resident(setup, false));
    } else {
      out.hot_resident = std::min(out.hot_resident, resident(setup, true));
    }
  };
  const auto round_of = [&](Pair& into, int round, bool keep, bool cold) {
    const auto record = [keep](std::vector<double>& v, double s) {
      if (keep) v.push_back(s);
    };
    rotated(round, {[&] {
                      prepare(cold);
                      std::uint64_t got = 0;
                      record(into.raw_s, timed(setup.comm, [&] { got = raw_read(mine, buffer); }));
                      check_size(got);
                    },
                    [&] {
                      prepare(cold);
                      double context_s = 0.0;
                      const double s = timed_restart(setup, written, out.restored, out.all_verified, context_s);
                      record(into.checkpoint_s, s);
                      record(into.context_s, context_s);
                    },
                    [&] {
                      prepare(cold);
                      std::uint64_t got = 0;
                      std::unique_ptr<std::byte[]> held;  // freed after the clock stops, as the restart's state is
                      record(into.memory_s, timed(setup.comm, [&] { held = raw_read_to_memory(mine, got); }));
                      check_size(got);
                    }});
  };
  for (int round = 0; round < setup.warmup + setup.trials; ++round) {
    const bool keep = round >= setup.warmup;
    if (round > 0) warm_all(setup, buffer);
    round_of(out.hot, round, keep, false);
    round_of(out.cold, round, keep, true);
  }
  // Hot must mean hot: a machine short of memory would have evicted the files in between.
  if (out.hot_resident < 0.95 && setup.rank == 0)
    std::fprintf(stderr, "tessera-bench-checkpoint: warning: only %.0f %% of the files were cached before a hot read\n",
                 100.0 * out.hot_resident);
  return out;
}

double checksum_mb_per_s(std::uint64_t bytes) {
  std::vector<std::byte> data(bytes);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 131 + (i >> 12));
  const Clock::time_point start = Clock::now();
  collections::checkpoint::Crc32c crc;
  for (std::size_t at = 0; at < data.size(); at += kRawChunk)
    crc.update(std::span<const std::byte>(data).subspan(at, std::min(kRawChunk, data.size() - at)));
  volatile collections::checkpoint::Checksum sink = crc.value();
  (void)sink;
  const double s = seconds_since(start);
  return static_cast<double>(bytes) / s / 1e6;
}

}  // namespace tessera::bench::checkpoint
