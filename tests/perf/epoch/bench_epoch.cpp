// tessera-bench-epoch: the cost of an empty collective epoch against MPI_Barrier in the same run,
// the throughput of a fixed random message cascade inside collective epochs, and (2 ranks or an
// even count) a runtime message exchange between rank pairs, which an empty epoch on 2 ranks
// contains: what the epoch costs beyond it is the termination layer's, not the transport's.
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

namespace {

std::uint64_t handled = 0;
std::uint64_t parts = 0;  // exchange messages handled on this rank
void part(std::uint64_t) { ++parts; }

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void spread(tessera::Runtime& rt, std::uint64_t seed, int depth) {
  ++handled;
  if (depth == 0) return;
  for (int i = 0; i < 2; ++i) {
    const std::uint64_t child = mix(seed * 2 + i);
    rt.send<&spread>(static_cast<int>(child % rt.size()), child, depth - 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  tessera::TerminationFlags flags;
  tessera::RuntimeOptions options;
  options.flag_groups = {&flags};
  tessera::Runtime rt(argc, argv, options);
  tessera::Termination term(rt, flags);
  CLI::App app{"Tessera epoch cost and cascade throughput"};
  std::string report;
  int epochs = 2000;
  int trials = 5;
  int depth = 12;
  app.add_option("--report", report, "json prints one JSON object on the last line")->check(CLI::IsMember({"json", "text"}));
  app.add_option("--epochs", epochs, "Empty epochs (and barriers) per trial")->check(CLI::PositiveNumber);
  app.add_option("--trials", trials, "Interleaved trials; the best is kept")->check(CLI::PositiveNumber);
  app.add_option("--depth", depth, "Cascade depth (2^depth messages per starting rank)")->check(CLI::Range(1, 20));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rt.rank() == 0 ? app.exit(e) : 1;
  }
  MPI_Comm app_comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &app_comm);
  double best_epoch = 1e30;
  double best_barrier = 1e30;
  // Exchange (an even rank count): every rank sends one message to its pair partner and waits for
  // the partner's, as an epoch's butterfly round does. A partner is at most one message ahead, so
  // the wait is for a running count to reach (>=) what this rank has sent.
  const bool paired = rt.size() % 2 == 0;
  double best_exchange = paired ? 1e30 : 0.0;
  for (int t = 0; t < trials; ++t) {
    MPI_Barrier(app_comm);
    double start = tessera::wall_time();
    for (int i = 0; i < epochs; ++i) MPI_Barrier(app_comm);
    best_barrier = std::min(best_barrier, (tessera::wall_time() - start) / epochs);
    rt.collectives().barrier();
    start = tessera::wall_time();
    for (int i = 0; i < epochs; ++i) term.run_in_epoch_collective([] {});
    best_epoch = std::min(best_epoch, (tessera::wall_time() - start) / epochs);
    if (!paired) continue;
    rt.collectives().barrier();
    start = tessera::wall_time();
    for (int i = 0; i < epochs; ++i) {
      rt.send<&part>(rt.rank() ^ 1, std::uint64_t{1});
      const auto want = static_cast<std::uint64_t>(t) * static_cast<std::uint64_t>(epochs) + static_cast<std::uint64_t>(i) + 1;
      rt.run_until([&] { return parts >= want; });
    }
    best_exchange = std::min(best_exchange, (tessera::wall_time() - start) / epochs);
  }
  // Cascade: every rank starts a binary cascade of the given depth inside one collective epoch.
  double best_rate = 0;
  for (int t = 0; t < trials; ++t) {
    handled = 0;
    rt.collectives().barrier();
    const double start = tessera::wall_time();
    term.run_in_epoch_collective([&] { rt.send<&spread>(rt.rank(), mix(rt.rank() + 1000 * t), depth); });
    const double elapsed = tessera::wall_time() - start;
    const auto total = rt.collectives().allreduce(handled, tessera::op::sum{});
    const auto expected = static_cast<std::uint64_t>(rt.size()) * ((std::uint64_t{1} << (depth + 1)) - 1);
    if (total != expected) tessera::fatal("cascade handled {} messages, expected {}", total, expected);
    const double slowest = rt.collectives().allreduce(elapsed, tessera::op::max{});
    best_rate = std::max(best_rate, static_cast<double>(total) / slowest);
  }
  if (rt.rank() == 0) {
    fmt::print("{} ranks: empty collective epoch {:.2f} us, MPI_Barrier {:.2f} us, ratio {:.3f}; runtime pair "
               "exchange {:.2f} us; cascade {:.0f} msgs/s\n",
               rt.size(), best_epoch * 1e6, best_barrier * 1e6, best_epoch / best_barrier, best_exchange * 1e6,
               best_rate);
    if (report == "json")
      fmt::print(R"({{"benchmark":"epoch","ranks":{},"empty_collective_us":{:.3f},"mpi_barrier_us":{:.3f},"ratio":{:.4f},)"
                 R"("exchange_us":{:.3f},"cascade_msgs_per_s":{:.0f}}})"
                 "\n",
                 rt.size(), best_epoch * 1e6, best_barrier * 1e6, best_epoch / best_barrier, best_exchange * 1e6,
                 best_rate);
  }
  MPI_Comm_free(&app_comm);
  return 0;
}
