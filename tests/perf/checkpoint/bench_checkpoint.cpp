// tessera-bench-checkpoint (run on 2 ranks: mpirun -np 2): what checkpoint
// and restart cost against the storage itself, and what checkpoints cost the PIC main job, in one
// run. With --report=json rank 0 prints one JSON object on the last line of standard output.
//
// 1. Write. A 1-D collection of --elements elements (256) holding --bytes in total (1 GiB), each a
//    vector of 64-bit values (one block on the wire and in the file), is checkpointed with
//    Context::checkpoint (rank files written in 8 MiB chunks while their CRC-32C is computed, fsync'd,
//    then app.bin and the manifest, each fsync'd, renamed into place, directory fsync'd). Against
//    it, each rank writes the same bytes dd-style: writev calls of >= 8 MiB from where the values
//    lie into one new file in the same directory, then fsync. Each side's time is the slowest
//    rank's from a common barrier; MB/s = --bytes / that time (1 MB = 1e6 bytes).
//      write_ratio = checkpoint_write_mb_per_s / raw_write_mb_per_s        (target >= 0.5)
// 2. Read. The first Context is destroyed; a new one in the same process gets
//    --tessera_restart=DIR and the collection is created again, which restores it. Timed from the
//    Context's construction (runtime start, manifest, mapping and CRC-32C of the rank file: its
//    share is restart_context_s) to the collection's return (decoding every element), slowest
//    rank. Against it, each rank read()s its raw file in 8 MiB chunks into one reused buffer (dd):
//      read_ratio = checkpoint_read_mb_per_s / raw_read_mb_per_s           (target >= 0.5)
//    raw_read_to_memory_mb_per_s is a second, informative baseline: the raw file read into one new
//    allocation of its size, the least any restart does (the state must end up in memory).
//    Page cache: every read is measured hot (the files in the page cache: just written, or read
//    back in after a cold round; hot_resident says how much was) and cold (before each cold
//    measurement every file of every side is dropped with posix_fadvise(DONTNEED), which drops
//    them all since they were fsync'd; cold_resident says what was left). read_ratio is the COLD
//    one, the headline: a restart follows a failure, usually in a new job, so its files are not in
//    memory, and hot it compares a checksum pass and a copy into the elements with one memcpy from the page cache.
//    On this VM "cold" means the virtual disk, which the host may still cache. Every restored
//    value is compared with the value it was built from (block.hpp), and the restored checksum
//    and count with the written ones (not timed); the collection is created with 0 values per
//    element, so one constructed instead of restored fails that check.
// 3. Pause. tessera-pic --mode=amt at its default input on the same ranks with TemperedLB,
//    --tessera_lb_interval=auto, --checkpoint_every 50 into this run's directory (all kept:
//    --tessera_checkpoint_keep=0, so their bytes can be counted):
//      pause_fraction = breakdown.checkpoint_s / total_s (tessera-pic's time to solution)
//    median over --pic_trials runs (3; one checkpoint's fsync varies from run to run), each
//    run's own total_s and checkpoint_s in pic_runs, the bytes of one run's checkpoints.
//    It runs in this process through tessera-pic's driver library (run_amt on MPI_COMM_WORLD,
//    with tessera-pic's malloc settings), after parts 1 and 2 have freed their memory and removed
//    their files. Not a nested mpirun: Open MPI 4.1 refuses one started from a rank of an mpirun
//    job ("mpirun does not support recursive calls"), even after MPI_Finalize, unless the child's
//    OMPI_/PMIX_ environment is scrubbed; the driver gives the figures tessera-pic prints, since
//    total_s is timed inside the step loop, not around the process.
//
// Excluded everywhere: creating and filling the collection, removing the previous round's files
// (done, and committed with syncfs, before each timed write), and checking restored values.
// Each figure is the median over --trials rounds, after --warmup untimed rounds of every side
// (1: on this VM the first round of a fresh process is several times slower on both sides, e.g.
// 2.7-3.0 s against 0.5-1.2 s to write 1 GiB, most likely the host backing guest memory the page
// cache had not used yet). The sides' order rotates from round to round.
// The directory is a new one inside --dir (/tmp), removed at the end. Flags:
//   --bytes N (suffixes: MiB, GiB...)  --elements N  --trials N  --warmup N  --dir DIR
//   --skip_pic  --pic_trials N (3)  --checkpoint_every N  --pic_args "..." (extra tessera-pic
//   flags: a small input)
// --tessera_ flags are passed to every Context of parts 1 and 2.
#include "pic_pause.hpp"
#include "storage.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>

namespace {

using namespace tessera::bench::checkpoint;

struct Options {
  std::string report = "text";
  std::uint64_t bytes = std::uint64_t{1} << 30;
  std::uint64_t elements = 256;
  int trials = 3;
  int warmup = 1;
  std::string dir = "/tmp";
  bool skip_pic = false;
  std::string pic_args;
  int pic_trials = 3;
  std::int64_t checkpoint_every = 50;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double mb_per_s(std::uint64_t bytes, const std::vector<double>& seconds) {
  return static_cast<double>(bytes) / median(seconds) / 1e6;
}

// The 1-minute load average (/proc/loadavg), 0 if unreadable: this machine's 2 cores are shared,
// and another job's load slows the CPU-bound checkpoint side more than the raw one.
double load_average() {
  double load = 0.0;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1) load = 0.0;
    std::fclose(f);
  }
  return load;
}

// Rank 0 makes this run's own directory and tells the others; "" everywhere if it cannot.
std::filesystem::path make_work_dir(MPI_Comm comm, int rank, const std::string& parent) {
  std::string path;
  if (rank == 0) {
    try {
      const std::filesystem::path dir =
          std::filesystem::path(parent) / fmt::format("tessera-bench-checkpoint.{}", ::getpid());
      std::filesystem::create_directories(dir);
      path = dir.string();
    } catch (const std::filesystem::filesystem_error& e) {
      std::fprintf(stderr, "tessera-bench-checkpoint: --dir %s: %s\n", parent.c_str(), e.what());
    }
  }
  int n = static_cast<int>(path.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, comm);
  path.resize(static_cast<std::size_t>(n));
  MPI_Bcast(path.data(), n, MPI_CHAR, 0, comm);
  return path;
}

nlohmann::ordered_json seconds_json(const Writes& w, const Reads& r) {
  return {{"checkpoint_write", w.seconds.checkpoint_s}, {"raw_write", w.seconds.raw_s},
          {"restart_hot", r.hot.checkpoint_s},         {"raw_read_hot", r.hot.raw_s},
          {"restart_cold", r.cold.checkpoint_s},       {"raw_read_cold", r.cold.raw_s},
          {"raw_read_to_memory_hot", r.hot.memory_s},  {"raw_read_to_memory_cold", r.cold.memory_s}};
}

int run(const Options& o, Setup& setup) {
  const std::uint64_t bytes = setup.bytes();
  const double load_before = load_average();
  const double sha = slowest(setup.comm, 1.0 / checksum_mb_per_s(std::min<std::uint64_t>(bytes, 64 << 20)));
  const Writes writes = measure_writes(setup);
  const Reads reads = measure_reads(setup, writes.written);
  // Part 3 runs on a clean disk and page cache: parts 1 and 2's files go first.
  if (setup.rank == 0) std::filesystem::remove_all(setup.checkpoint_dir());
  std::filesystem::remove(setup.raw_file(setup.rank));
  MPI_Barrier(setup.comm);
  std::optional<PicSeries> pic;
  if (!o.skip_pic) {
    std::vector<std::string> extra;
    std::istringstream words(o.pic_args);
    for (std::string w; words >> w;) extra.push_back(w);
    pic = run_pic_series(setup.comm, setup.work / "pic", o.checkpoint_every, extra, o.pic_trials);
  }
  MPI_Barrier(setup.comm);
  if (setup.rank != 0) return reads.all_verified && (!pic || pic->validated()) ? 0 : 1;
  std::filesystem::remove_all(setup.work);

  const double cw = mb_per_s(bytes, writes.seconds.checkpoint_s), rw = mb_per_s(bytes, writes.seconds.raw_s);
  const double ch = mb_per_s(bytes, reads.hot.checkpoint_s), rh = mb_per_s(bytes, reads.hot.raw_s);
  const double cc = mb_per_s(bytes, reads.cold.checkpoint_s), rc = mb_per_s(bytes, reads.cold.raw_s);
  const double mh = mb_per_s(bytes, reads.hot.memory_s), mc = mb_per_s(bytes, reads.cold.memory_s);
  const auto pic_value = [&](auto f) {
    return pic ? nlohmann::ordered_json(f(*pic)) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json out = {
      {"benchmark", "checkpoint"},
      {"ranks", setup.ranks},
      {"bytes", bytes},
      {"elements", setup.elements},
      {"trials", setup.trials},
      {"warmup", setup.warmup},
      {"checkpoint_write_mb_per_s", cw},
      {"raw_write_mb_per_s", rw},
      {"write_ratio", cw / rw},
      {"checkpoint_read_mb_per_s", {{"hot", ch}, {"cold", cc}}},
      {"raw_read_mb_per_s", {{"hot", rh}, {"cold", rc}}},
      {"read_ratio", cc / rc},
      {"read_ratio_hot", ch / rh},
      {"read_headline", "cold"},
      {"raw_read_to_memory_mb_per_s", {{"hot", mh}, {"cold", mc}}},
      {"verified", reads.all_verified},
      {"restored_elements", reads.restored.elements},
      {"checksum", fmt::format("{:016x}", reads.restored.checksum)},
      {"hot_resident", reads.hot_resident},
      {"cold_resident", reads.cold_resident},
      {"checkpoint_file_bytes", writes.checkpoint_file_bytes},
      {"checksum_mb_per_s", 1.0 / sha},
      {"context_start_s", writes.context_start_s},
      {"restart_context_s", {{"hot", median(reads.hot.context_s)}, {"cold", median(reads.cold.context_s)}}},
      {"seconds", seconds_json(writes, reads)},
      {"pause_fraction", pic_value([](const PicSeries& p) { return p.pause_fraction(); })},
      {"checkpoint_s", pic_value([](const PicSeries& p) { return p.checkpoint_s(); })},
      {"total_s", pic_value([](const PicSeries& p) { return p.total_s(); })},
      {"pic_checkpoints", pic_value([](const PicSeries& p) { return p.runs.back().checkpoints; })},
      {"pic_checkpoint_bytes", pic_value([](const PicSeries& p) { return p.runs.back().checkpoint_bytes; })},
      {"pic_validated", pic_value([](const PicSeries& p) { return p.validated(); })},
      {"pic_runs", pic_value([](const PicSeries& p) {
         nlohmann::ordered_json runs = nlohmann::ordered_json::array();
         for (const PicPause& r : p.runs) runs.push_back({{"total_s", r.total_s}, {"checkpoint_s", r.checkpoint_s}});
         return runs;
       })},
      {"pic_args",
       pic_value([](const PicSeries& p) { return fmt::format("{}", fmt::join(p.runs.back().args, " ")); })},
      {"load_average", {{"before", load_before}, {"after", load_average()}}},
      {"dir", setup.work.string()}};
  if (o.report == "json") {
    fmt::print("{}\n", out.dump());
  } else {
    fmt::print("checkpoint of {} bytes on {} ranks, median of {} trials, in {}\n", bytes, setup.ranks, setup.trials,
               setup.work.string());
    fmt::print("  write: checkpoint {:.0f} MB/s, raw {:.0f} MB/s, ratio {:.3f}\n", cw, rw, cw / rw);
    fmt::print("  read hot:  restart {:.0f} MB/s, raw {:.0f} MB/s, ratio {:.3f} (raw into new memory {:.0f} MB/s)\n", ch,
               rh, ch / rh, mh);
    fmt::print("  read cold: restart {:.0f} MB/s, raw {:.0f} MB/s, ratio {:.3f} (raw into new memory {:.0f} MB/s; headline)\n",
               cc, rc, cc / rc, mc);
    fmt::print("  restored values {}\n", reads.all_verified ? "verified" : "WRONG");
    if (pic)
      fmt::print("  PIC: {} checkpoints ({} bytes) took {:.3f} s of {:.3f} s: pause fraction {:.4f} (median of {}){}\n",
                 pic->runs.back().checkpoints, pic->runs.back().checkpoint_bytes, pic->checkpoint_s(), pic->total_s(),
                 pic->pause_fraction(), pic->runs.size(), pic->validated() ? "" : " (NOT VALIDATED)");
  }
  std::fflush(stdout);
  if (!reads.all_verified)
    std::fprintf(stderr, "tessera-bench-checkpoint: the restored elements differ from the written ones\n");
  return reads.all_verified && (!pic || pic->validated()) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Setup setup;
  setup.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(setup.comm, &setup.rank);
  MPI_Comm_size(setup.comm, &setup.ranks);
  setup.program = argc > 0 ? argv[0] : "tessera-bench-checkpoint";
  // --tessera_ flags are the Contexts'; the rest are this benchmark's.
  std::vector<std::string> own{setup.program};
  for (int i = 1; i < argc; ++i)
    (std::string_view(argv[i]).starts_with("--tessera_") ? setup.tessera_args : own).push_back(argv[i]);

  Options o;
  CLI::App app{"tessera-bench-checkpoint: checkpoint write and restart read against dd-style I/O, and the "
               "checkpoints' pause of the PIC main job",
               "tessera-bench-checkpoint"};
  app.add_option("--report", o.report, "text, or json: one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--bytes", o.bytes, "bytes held by the collection in total (e.g. 64MiB, 1GiB)")
      ->transform(CLI::AsSizeValue(true))
      ->capture_default_str();
  app.add_option("--elements", o.elements, "elements of the collection")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--trials", o.trials, "trials of each measurement; figures are medians")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed rounds before the trials, both sides alike")
      ->check(CLI::Range(0, 5))
      ->capture_default_str();
  app.add_option("--dir", o.dir, "where this run's directory is made (removed at the end)")->capture_default_str();
  app.add_flag("--skip_pic", o.skip_pic, "skip part 3, the PIC main job with checkpoints");
  app.add_option("--pic_args", o.pic_args,
                 "extra tessera-pic flags for part 3, e.g. \"--L 96 --n 4000 --steps 20 --distribution PATCH 0 23 0 23\"");
  app.add_option("--pic_trials", o.pic_trials, "runs of part 3; its figures are medians")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  app.add_option("--checkpoint_every", o.checkpoint_every, "part 3's tessera-pic --checkpoint_every")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  std::vector<const char*> own_argv;
  for (const std::string& s : own) own_argv.push_back(s.c_str());
  int code = 0;
  try {
    app.parse(static_cast<int>(own_argv.size()), own_argv.data());
  } catch (const CLI::ParseError& e) {
    code = setup.rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
    MPI_Finalize();
    return code;
  }
  setup.elements = o.elements;
  setup.values = o.bytes / o.elements / sizeof(std::uint64_t);
  setup.trials = o.trials;
  setup.warmup = o.warmup;
  if (setup.values == 0) {
    if (setup.rank == 0) std::fprintf(stderr, "tessera-bench-checkpoint: --bytes %llu is less than 8 bytes per element\n",
                                      static_cast<unsigned long long>(o.bytes));
    MPI_Finalize();
    return 1;
  }
  setup.work = make_work_dir(setup.comm, setup.rank, o.dir);
  if (setup.work.empty()) {
    MPI_Finalize();
    return 1;
  }
  try {
    code = run(o, setup);
  } catch (const std::exception& e) {
    // A failure on one rank leaves the other in a collective: report, clean up, stop the job.
    std::fprintf(stderr, "tessera-bench-checkpoint: rank %d: %s\n", setup.rank, e.what());
    std::error_code ignored;
    std::filesystem::remove_all(setup.work, ignored);
    MPI_Abort(setup.comm, 1);
  }
  MPI_Finalize();
  return code;
}
