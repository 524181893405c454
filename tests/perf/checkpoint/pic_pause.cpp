#include "pic_pause.hpp"

#include "raw_io.hpp"

#include "tessera/pic/driver/modes.hpp"
#include <tessera/runtime/error.hpp>

#include <malloc.h>

#include <algorithm>
#include <stdexcept>

namespace tessera::bench::checkpoint {

namespace {

template <class F>
double median_of(const std::vector<PicPause>& runs, F f) {
  std::vector<double> v;
  for (const PicPause& r : runs) v.push_back(f(r));
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

double PicSeries::pause_fraction() const { return median_of(runs, [](const PicPause& p) { return p.pause_fraction(); }); }
double PicSeries::checkpoint_s() const { return median_of(runs, [](const PicPause& p) { return p.checkpoint_s; }); }
double PicSeries::total_s() const { return median_of(runs, [](const PicPause& p) { return p.total_s; }); }
bool PicSeries::validated() const {
  return !runs.empty() && std::all_of(runs.begin(), runs.end(), [](const PicPause& p) { return p.validated; });
}

PicSeries run_pic_series(MPI_Comm comm, const std::filesystem::path& dir, std::int64_t every,
                         const std::vector<std::string>& extra, int trials) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  PicSeries series;
  for (int t = 0; t < trials; ++t) {
    const std::filesystem::path mine = dir / ("run." + std::to_string(t));
    series.runs.push_back(run_pic(comm, mine, every, extra));
    MPI_Barrier(comm);  // every rank has counted the bytes
    if (rank == 0) std::filesystem::remove_all(mine);
    MPI_Barrier(comm);
  }
  return series;
}

PicPause run_pic(MPI_Comm comm, const std::filesystem::path& dir, std::int64_t every,
                 const std::vector<std::string>& extra) {
  PicPause out;
  out.args = {"tessera-pic",
              "--mode=amt",
              "--tessera_lb_name=TemperedLB",
              "--tessera_lb_interval=auto",
              "--checkpoint_every",
              std::to_string(every),
              "--tessera_checkpoint_dir=" + dir.string(),
              // All kept, so their bytes add up after the run (the default keeps 2, and removing
              // the older ones would add an unlink of each to the pause).
              "--tessera_checkpoint_keep=0",
              "--report=json"};
  out.args.insert(out.args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const std::string& a : out.args) argv.push_back(a.c_str());

  // tessera-pic's main sets these before anything else (apps/pic/main.cpp: its particle buffers
  // would otherwise fault their pages in again every step); the run here must see the same heap.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  const pic::driver::ParseResult parsed = pic::driver::parse_options(static_cast<int>(argv.size()), argv.data());
  if (!parsed.options) throw std::runtime_error(parsed.message);  // names tessera-pic and the flag
  pic::driver::RunSummary summary;
  try {
    summary = pic::driver::run_amt(*parsed.options, comm);
  } catch (const tessera::InputError& e) {
    throw std::runtime_error(std::string("tessera-pic: ") + e.what());
  }
  out.total_s = summary.time.total_s;
  out.checkpoint_s = summary.time.breakdown.checkpoint_s;
  out.validated = summary.validated;
  MPI_Barrier(comm);  // every rank's files are complete (the last checkpoint is collective anyway)
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_directory() && entry.path().filename().string().starts_with("phase.")) ++out.checkpoints;
  out.checkpoint_bytes = bytes_under(dir);
  return out;
}

}  // namespace tessera::bench::checkpoint
