// tessera-bench-collection (2 ranks): one-way latency of an element message
// against a plain rank message, and migration throughput of 1 KiB and 1 MiB elements against raw
// MPI bandwidth, all in the same run. Targets: send_ratio <= 1.3; migration_mb_per_s >= half of
// mpi_mb_per_s for 1 MiB elements. With --report=json the last line of standard output is
//   {"benchmark":"collection","element_send_us":..,"rank_send_us":..,"send_ratio":..,
//    "migrations_per_s":..,"migration_mb_per_s":..,"mpi_mb_per_s":..,  (1 MiB elements)
//    "migrations_per_s_1k":..,"migration_mb_per_s_1k":..,"mpi_mb_per_s_1k":..,
//    "mpi_one_buffer_mb_per_s":..}  (1 MiB, one buffer resent from cache: see migration.cpp)
//
// MPI's buffers are allocated and touched before its timed region. The migrated elements' new
// state is allocated inside the timed region, by cereal, so --heap decides what that costs:
// retain (the default) has glibc keep freed memory mapped (no trimming, no mmap per 1 MiB chunk),
// so the state of elements that arrive lands in pages that departed elements gave back, already
// mapped like MPI's; trim (glibc's defaults) returns departed elements' pages to the kernel, and
// every arriving MiB then faults 256 fresh pages in, which here costs more than the transfer
// (about 0.6 ms per MiB) and measures the kernel rather than the runtime.
#include "bench.hpp"

#include <tessera/collections.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <malloc.h>

#include <cstdio>

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  CLI::App app{"Tessera collections: element message latency and migration throughput against MPI",
               "tessera-bench-collection"};
  std::string report = "text";
  int round_trips = 20000;
  int trials = 5;
  int large_elements = 64;
  int small_elements = 4096;
  std::string heap = "retain";
  app.add_option("--report", report, "text, or json: one JSON object on the last line")
      ->check(CLI::IsMember({"json", "text"}));
  app.add_option("--round-trips", round_trips, "ping-pong round trips per latency trial")->check(CLI::PositiveNumber);
  app.add_option("--trials", trials, "interleaved trials; the best of each figure is kept")->check(CLI::PositiveNumber);
  app.add_option("--large-elements", large_elements, "1 MiB elements moved per migration trial")
      ->check(CLI::PositiveNumber);
  app.add_option("--small-elements", small_elements, "1 KiB elements moved per migration trial")
      ->check(CLI::PositiveNumber);
  app.add_option("--heap", heap, "retain: glibc keeps freed memory mapped; trim: glibc's defaults")
      ->check(CLI::IsMember({"retain", "trim"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rt.rank() == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
  }
  if (rt.size() < 2) {
    if (rt.rank() == 0) std::fprintf(stderr, "tessera-bench-collection: needs at least 2 ranks, got %d\n", rt.size());
    return 1;
  }
  if (heap == "retain") {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest: 1 MiB states come from the heap,
    mallopt(M_TRIM_THRESHOLD, 1 << 30);   // and the heap keeps what departed elements freed
  }
  tessera::collections::PhaseManager::install(rt, tessera::collections::LoadClock::wall);
  MPI_Comm mpi_comm = MPI_COMM_NULL;
  MPI_Comm_dup(rt.comm(), &mpi_comm);

  const auto latency = tessera::bench::measure_latency(rt, round_trips, trials);
  const auto small = tessera::bench::measure_migration(rt, mpi_comm, 1024, small_elements, trials);
  const auto large = tessera::bench::measure_migration(rt, mpi_comm, 1 << 20, large_elements, trials);
  MPI_Comm_free(&mpi_comm);

  if (rt.rank() == 0) {
    const double ratio = latency.element_us / latency.rank_us;
    fmt::print("one-way latency   element {:.3f} us   rank {:.3f} us   ratio {:.3f} (target <= 1.3)\n",
               latency.element_us, latency.rank_us, ratio);
    for (const auto& m : {small, large})
      fmt::print("migration {:>8} B  {:10.0f} migrations/s  {:9.1f} MB/s   mpi {:9.1f} MB/s   fraction {:.2f}"
                 "   (mpi resending one buffer {:.1f} MB/s)\n",
                 m.bytes, m.migrations_per_s, m.migration_mb_per_s, m.mpi_mb_per_s,
                 m.migration_mb_per_s / m.mpi_mb_per_s, m.mpi_one_buffer_mb_per_s);
    if (report == "json")
      fmt::print(R"({{"benchmark":"collection","element_send_us":{:.4f},"rank_send_us":{:.4f},"send_ratio":{:.4f},)"
                 R"("migrations_per_s":{:.1f},"migration_mb_per_s":{:.1f},"mpi_mb_per_s":{:.1f},)"
                 R"("migrations_per_s_1k":{:.1f},"migration_mb_per_s_1k":{:.1f},"mpi_mb_per_s_1k":{:.1f},)"
                 R"("mpi_one_buffer_mb_per_s":{:.1f}}})"
                 "\n",
                 latency.element_us, latency.rank_us, ratio, large.migrations_per_s, large.migration_mb_per_s,
                 large.mpi_mb_per_s, small.migrations_per_s, small.migration_mb_per_s, small.mpi_mb_per_s,
                 large.mpi_one_buffer_mb_per_s);
  }
  return 0;
}
