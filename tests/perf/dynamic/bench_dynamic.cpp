// tessera-bench-dynamic: what inserting elements at run time costs against creating them with
// the collection, and what destroying them costs, on the ranks of one run.
//   static        make_collection of --elements elements: every rank constructs those it homes;
//   insert        make_dynamic_collection, then every rank inserts the elements it homes
//                 (the home decides at once: no message);
//   insert_remote every element inserted by the rank after its home, so each insertion is a
//                 message to the home (on one rank, the same as insert);
//   destroy       every element destroyed by the rank after its home (a message each);
//   amr           tessera-amr's run (apps/amr) without balancing and with GreedyLB requested
//                 after every refinement stage, on the same ranks, --amr_trials interleaved
//                 pairs: amr_balanced_speedup is the best unbalanced wall time over the best
//                 balanced one (steps only: the mesh's start and its verification are outside
//                 both; the balancings and migrations are inside).
// Each time runs from a barrier to quiescence on every rank (the slowest rank's wall time),
// best of --trials; the collection's creation is inside every figure, and so is the drain that
// waits for the messages. Every element's state is checked after each insertion. Under
// oversubscription the times are noise: quote the ratios, taken in one run.
#include <tessera/amr/driver/run.hpp>
#include <tessera/tessera.hpp>
#include <tessera/runtime/timer.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

namespace {

using namespace tessera::collections;

struct Cell : Element<Cell, 1> {
  std::int64_t seed = 0;
  std::array<double, 6> state{};  // a small element: 64 bytes with the seed and the base
  Cell() = default;
  Cell(const Index1D& idx, std::int64_t s) : seed(s) { state[0] = static_cast<double>(idx[0]); }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(seed, state);
  }
};

// Every element is present once, with the state its constructor gave it.
void check(tessera::Runtime& rt, const CollectionProxy<Cell>& cells, std::int64_t n, const char* what) {
  std::int64_t bad = 0;
  cells.manager().for_each_local([&](Cell& c) { bad += c.seed != 3 * c.index()[0] || c.state[0] != static_cast<double>(c.index()[0]); });
  const auto count = static_cast<std::int64_t>(cells.manager().local_count());
  const auto totals = rt.collectives().allreduce(std::array<std::int64_t, 2>{count, bad}, [](auto a, const auto& b) {
    return std::array<std::int64_t, 2>{a[0] + b[0], a[1] + b[1]};
  });
  if (totals[0] != n || totals[1] != 0)
    tessera::fatal("{}: {} elements, {} with a wrong state; expected {} and 0", what, totals[0], totals[1], n);
}

}  // namespace

int main(int argc, char** argv) {
  tessera::Context ctx(argc, argv);
  tessera::Runtime& rt = ctx.runtime();
  CLI::App app{"tessera-bench-dynamic: inserting and destroying elements against creating them statically"};
  std::string report = "text";
  std::int64_t elements = 100000;
  int trials = 5;
  tessera::amr::Options amr;
  amr.mesh.cells = 32;
  amr.passes = 48;
  bool run_amr = true;
  int amr_trials = 3;
  app.add_option("--report", report, "json prints one JSON object on the last line")->check(CLI::IsMember({"json", "text"}));
  app.add_option("--elements", elements, "elements of the collection, over all ranks")->check(CLI::PositiveNumber);
  app.add_option("--trials", trials, "interleaved trials; the best of each is kept")->check(CLI::PositiveNumber);
  app.add_option("--amr_passes", amr.passes, "tessera-amr's diffusion passes per block and step (its work)")
      ->check(CLI::PositiveNumber);
  app.add_option("--amr_steps", amr.mesh.steps, "tessera-amr's steps")->check(CLI::PositiveNumber);
  app.add_option("--amr_trials", amr_trials, "interleaved pairs of AMR runs; the best of each kind is kept")
      ->check(CLI::PositiveNumber);
  app.add_flag("--amr,!--no-amr", run_amr, "run the AMR comparison (the default), or --no-amr to skip it");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rt.rank() == 0 ? app.exit(e) : 1;
  }
  auto& coll = rt.collectives();
  const int p = rt.size(), me = rt.rank();
  const Index1D bounds{elements};
  // The slowest rank's wall time of `run`, from a common barrier to global quiescence.
  const auto timed = [&](auto&& run) {
    coll.barrier();
    const double start = tessera::wall_time();
    run();
    rt.drain();
    return coll.allreduce(tessera::wall_time() - start, tessera::op::max{});
  };
  double static_s = 1e30, insert_s = 1e30, remote_s = 1e30, destroy_s = 1e30;
  for (int t = 0; t < trials; ++t) {
    {
      CollectionProxy<Cell> cells;
      static_s = std::min(static_s, timed([&] {
        cells = make_mapped_collection<Cell>(rt, bounds, Mapper<1>(block_map<1>), std::int64_t{0});
      }));
      cells.destroy();
    }
    {
      CollectionProxy<Cell> cells;
      insert_s = std::min(insert_s, timed([&] {
        cells = make_dynamic_collection<Cell>(rt, bounds);
        auto& manager = cells.manager();
        for (std::int64_t i = 0; i < elements; ++i)
          if (manager.home_of(static_cast<std::uint64_t>(i)) == me) cells[{i}].insert(3 * i);
      }));
      check(rt, cells, elements, "insert");
      cells.destroy();
    }
    {
      CollectionProxy<Cell> cells;
      remote_s = std::min(remote_s, timed([&] {
        cells = make_dynamic_collection<Cell>(rt, bounds);
        auto& manager = cells.manager();
        for (std::int64_t i = 0; i < elements; ++i)
          if ((manager.home_of(static_cast<std::uint64_t>(i)) + 1) % p == me) cells[{i}].insert(3 * i);
      }));
      check(rt, cells, elements, "insert_remote");
      destroy_s = std::min(destroy_s, timed([&] {
        auto& manager = cells.manager();
        for (std::int64_t i = 0; i < elements; ++i)
          if ((manager.home_of(static_cast<std::uint64_t>(i)) + 1) % p == me) cells[{i}].destroy();
      }));
      check(rt, cells, 0, "destroy");
      cells.destroy();
    }
  }
  double amr_plain_s = 1e30, amr_balanced_s = 1e30;
  for (int t = 0; run_amr && t < amr_trials; ++t) {
    amr.balance_with.clear();
    const tessera::amr::Result plain = tessera::amr::run_amr(amr, ctx);
    amr.balance_with = "GreedyLB";
    const tessera::amr::Result balanced = tessera::amr::run_amr(amr, ctx);
    if (!plain.conserved || !balanced.conserved || plain.fingerprint != balanced.fingerprint)
      tessera::fatal("amr: the balanced run differs (fingerprints {:016x} and {:016x}, conserved {} and {})",
                     plain.fingerprint, balanced.fingerprint, plain.conserved, balanced.conserved);
    amr_plain_s = std::min(amr_plain_s, plain.seconds);
    amr_balanced_s = std::min(amr_balanced_s, balanced.seconds);
  }
  if (me == 0) {
    fmt::print("{} elements on {} ranks, best of {} trials (wall time, slowest rank, creation included)\n", elements, p,
               trials);
    fmt::print("static creation   {:>9.2f} ms\n", static_s * 1e3);
    fmt::print("insert at home    {:>9.2f} ms  {:>5.2f}x static\n", insert_s * 1e3, insert_s / static_s);
    fmt::print("insert remotely   {:>9.2f} ms  {:>5.2f}x static\n", remote_s * 1e3, remote_s / static_s);
    fmt::print("destroy remotely  {:>9.2f} ms  {:>5.2f}x static\n", destroy_s * 1e3, destroy_s / static_s);
    if (run_amr)
      fmt::print("amr               {:>9.3f} s unbalanced, {:.3f} s with GreedyLB: {:.2f}x\n", amr_plain_s, amr_balanced_s,
                 amr_plain_s / amr_balanced_s);
    if (report == "json")
      fmt::print(R"({{"benchmark":"dynamic","ranks":{},"elements":{},"static_ms":{:.3f},"insert_ms":{:.3f},)"
                 R"("insert_remote_ms":{:.3f},"destroy_remote_ms":{:.3f},"insert_over_static":{:.4f},)"
                 R"("insert_remote_over_static":{:.4f},"destroy_remote_over_static":{:.4f},"amr_unbalanced_s":{:.4f},)"
                 R"("amr_balanced_s":{:.4f},"amr_balanced_speedup":{:.4f}}})"
                 "\n",
                 p, elements, static_s * 1e3, insert_s * 1e3, remote_s * 1e3, destroy_s * 1e3, insert_s / static_s,
                 remote_s / static_s, destroy_s / static_s, amr_plain_s, amr_balanced_s,
                 run_amr ? amr_plain_s / amr_balanced_s : 0.0);
  }
  return 0;
}
