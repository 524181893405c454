// tessera-bench-collectives: how an empty epoch, a broadcast and a reduction grow with the rank
// count. Each is timed against MPI's counterpart in the same run (MPI_Barrier,
// MPI_Bcast of 8 bytes, MPI_Allreduce of one double), best of --trials trials of --repeats
// operations each, and the messages each operation sends over all ranks are counted exactly
// (Runtime::all_messages_sent, system messages included; MPI's own are not visible to us).
//   empty epoch  Termination::run_in_epoch_collective with no work: the detection waves alone;
//   broadcast    rank 0's broadcast_from_this_rank down the spanning tree, every rank waiting
//                for it (MPI_Bcast: every rank returns once it has the value);
//   reduction    Collectives::allreduce of one double (sum).
// Under oversubscription the times are noise: quote the ratios, taken in one run.
#include <tessera/runtime.hpp>
#include <tessera/runtime/collectives.hpp>
#include <tessera/termination/termination.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

namespace {

std::uint64_t broadcasts = 0;  // broadcasts handled on this rank
void on_broadcast(std::uint64_t) { ++broadcasts; }

struct Figure {
  double tessera_s = 1e30;  // best over trials, per operation
  double mpi_s = 1e30;
  double messages = 0;      // per operation, all ranks
};

}  // namespace

int main(int argc, char** argv) {
  tessera::TerminationFlags flags;
  tessera::RuntimeOptions options;
  options.flag_groups = {&flags};
  tessera::Runtime rt(argc, argv, options);
  tessera::Termination term(rt, flags);
  CLI::App app{"tessera-bench-collectives: empty epoch, broadcast and reduction against MPI's"};
  std::string report = "text";
  int repeats = 500;
  int trials = 3;
  app.add_option("--report", report, "json prints one JSON object on the last line")->check(CLI::IsMember({"json", "text"}));
  app.add_option("--repeats", repeats, "operations per trial")->check(CLI::PositiveNumber);
  app.add_option("--trials", trials, "interleaved trials; the best is kept")->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rt.rank() == 0 ? app.exit(e) : 1;
  }
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  auto& coll = rt.collectives();
  // The messages of one barrier over all ranks. Counts are taken before the barrier that starts a
  // measurement: rank 0 leaves it first and may start sending while others are still in it, so a
  // count taken after it would miss what those ranks already passed on.
  std::uint64_t barrier_messages = 0;
  {
    coll.barrier();
    const std::uint64_t before = rt.all_messages_sent();
    coll.barrier();
    barrier_messages = coll.allreduce(rt.all_messages_sent() - before, tessera::op::sum{});
  }
  // Messages of `run` over all ranks, per operation, and its time (the slowest rank's).
  const auto counted = [&](auto&& run) {
    const std::uint64_t before = rt.all_messages_sent();
    coll.barrier();
    const double start = tessera::wall_time();
    run();
    const double local = tessera::wall_time() - start;
    const std::uint64_t sent = rt.all_messages_sent() - before;
    const double slowest = coll.allreduce(local, tessera::op::max{});
    const auto total = coll.allreduce(sent, tessera::op::sum{}) - barrier_messages;
    return std::pair{slowest / repeats, static_cast<double>(total) / repeats};
  };
  const auto mpi_timed = [&](auto&& run) {
    MPI_Barrier(comm);
    const double start = tessera::wall_time();
    run();
    double local = tessera::wall_time() - start, slowest = 0;
    MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    return slowest / repeats;
  };
  Figure epoch, broadcast, reduction;
  double sum_check = 0;
  for (int t = 0; t < trials; ++t) {
    broadcast.mpi_s = std::min(broadcast.mpi_s, mpi_timed([&] {
      for (int i = 0; i < repeats; ++i) {
        std::uint64_t value = static_cast<std::uint64_t>(i);
        MPI_Bcast(&value, 1, MPI_UINT64_T, 0, comm);
      }
    }));
    auto [bs, bm] = counted([&] {
      // Rank 0 leaves the barrier first and may be broadcasts ahead of a rank still in it: each
      // waits for the i-th broadcast of this trial, counted from the trials before.
      const auto base = static_cast<std::uint64_t>(t) * static_cast<std::uint64_t>(repeats);
      for (int i = 0; i < repeats; ++i) {
        if (rt.rank() == 0) rt.broadcast_from_this_rank<&on_broadcast>(static_cast<std::uint64_t>(i));
        rt.run_until([&] { return broadcasts >= base + static_cast<std::uint64_t>(i) + 1; });
      }
    });
    broadcast.tessera_s = std::min(broadcast.tessera_s, bs);
    broadcast.messages = bm;

    epoch.mpi_s = std::min(epoch.mpi_s, mpi_timed([&] {
      for (int i = 0; i < repeats; ++i) MPI_Barrier(comm);
    }));
    auto [es, em] = counted([&] {
      for (int i = 0; i < repeats; ++i) term.run_in_epoch_collective([] {});
    });
    epoch.tessera_s = std::min(epoch.tessera_s, es);
    epoch.messages = em;

    reduction.mpi_s = std::min(reduction.mpi_s, mpi_timed([&] {
      for (int i = 0; i < repeats; ++i) {
        double value = 1.0, out = 0;
        MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_SUM, comm);
      }
    }));
    auto [rs, rm] = counted([&] {
      for (int i = 0; i < repeats; ++i) sum_check = coll.allreduce(1.0, tessera::op::sum{});
    });
    reduction.tessera_s = std::min(reduction.tessera_s, rs);
    reduction.messages = rm;
  }
  if (sum_check != static_cast<double>(rt.size())) tessera::fatal("allreduce gave {}, expected {}", sum_check, rt.size());
  if (rt.rank() == 0) {
    const auto line = [&](const char* what, const char* mpi, const Figure& f) {
      fmt::print("{:<12} {:>9.2f} us {:>12} {:>9.2f} us  ratio {:>6.2f}  {:>7.1f} messages\n", what, f.tessera_s * 1e6, mpi,
                 f.mpi_s * 1e6, f.tessera_s / f.mpi_s, f.messages);
    };
    fmt::print("{} ranks, best of {} trials of {} operations\n", rt.size(), trials, repeats);
    line("empty epoch", "MPI_Barrier", epoch);
    line("broadcast", "MPI_Bcast", broadcast);
    line("reduction", "MPI_Allreduce", reduction);
    if (report == "json") {
      fmt::print(R"({{"benchmark":"collectives","ranks":{},"epoch_us":{:.3f},"barrier_us":{:.3f},"epoch_ratio":{:.4f},)"
                 R"("epoch_messages":{},"broadcast_us":{:.3f},"bcast_us":{:.3f},"broadcast_ratio":{:.4f},"broadcast_messages":{},)"
                 R"("reduction_us":{:.3f},"allreduce_us":{:.3f},"reduction_ratio":{:.4f},"reduction_messages":{}}})"
                 "\n",
                 rt.size(), epoch.tessera_s * 1e6, epoch.mpi_s * 1e6, epoch.tessera_s / epoch.mpi_s, epoch.messages,
                 broadcast.tessera_s * 1e6, broadcast.mpi_s * 1e6, broadcast.tessera_s / broadcast.mpi_s, broadcast.messages,
                 reduction.tessera_s * 1e6, reduction.mpi_s * 1e6, reduction.tessera_s / reduction.mpi_s, reduction.messages);
    }
  }
  MPI_Comm_free(&comm);
  return 0;
}
