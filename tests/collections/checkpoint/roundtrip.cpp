// tessera-checkpoint-roundtrip: writes a checkpoint of two collections after three phases with
// migrations, or restarts from one (on any rank count) and checks every element's state exactly.
//
//   roundtrip write DIR      checkpoint into DIR (Context::checkpoint) and exit 0
//   roundtrip read DIR       restart from DIR (--tessera_restart=DIR is added), verify, exit 0
//   roundtrip read-other DIR restart creating the first collection with another element type
//   roundtrip write-interval DIR  phases with --tessera_checkpoint_interval=2 --tessera_checkpoint_keep=2
//
// What "exactly" means: each element's state is a function of its index and the phases it ran,
// so the reader computes what every element must hold; it also checks the placement (kept on the
// same rank count, at the new home otherwise), the migration counts, the application state and the
// phase counter, and that element messages still reach every restored element.
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace tessera::collections;

constexpr std::int64_t kCells = 37;    // 1-D collection: a prime, so no rank count divides it
constexpr std::int64_t kSide = 5;      // 2-D collection: kSide x kSide
constexpr std::int64_t kPhases = 3;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Variable-size state through cereal, changed by every phase's broadcast.
struct Cell : Element<Cell, 1> {
  static constexpr std::string_view checkpoint_tag = "test.Cell";
  std::vector<double> values;
  std::string label;
  std::int64_t visits = 0;
  std::int64_t pings = 0;

  Cell() = default;
  explicit Cell(const Index1D& idx) : values(static_cast<std::size_t>(idx[0] % 7 + 1), 0.0), label(fmt::format("cell{}", idx[0])) {}

  void visit(std::int64_t phase) {
    ++visits;
    for (std::size_t i = 0; i < values.size(); ++i) values[i] += static_cast<double>(mix(phase * 1000 + index()[0] * 10 + i) % 1000) / 8.0;
    // Every third element moves one rank up, so the checkpoint holds elements away from home.
    if ((index()[0] + phase) % 3 == 0) migrate((runtime().rank() + 1) % runtime().size());
  }
  void ping() { ++pings; }
  template <class Archive>
  void serialize(Archive& archive) {
    archive(values, label, visits, pings);
  }
};

std::vector<double> expected_values(std::int64_t idx, std::int64_t phases) {
  std::vector<double> values(static_cast<std::size_t>(idx % 7 + 1), 0.0);
  for (std::int64_t phase = 0; phase < phases; ++phase)
    for (std::size_t i = 0; i < values.size(); ++i) values[i] += static_cast<double>(mix(phase * 1000 + idx * 10 + i) % 1000) / 8.0;
  return values;
}

// Trivially copyable state: copied as bytes.
struct Pixel : Element<Pixel, 2> {
  std::uint64_t value = 0;
  Pixel() = default;
  explicit Pixel(const Index2D& idx) : value(mix(static_cast<std::uint64_t>(idx[0] * kSide + idx[1]))) {}
};

// The same shape as Cell under another tag: a restart must refuse it.
struct OtherCell : Element<OtherCell, 1> {
  static constexpr std::string_view checkpoint_tag = "test.OtherCell";
  std::int64_t x = 0;
  OtherCell() = default;
  explicit OtherCell(const Index1D&) {}
};

struct AppState {
  std::int64_t phases = 0;
  std::int64_t ranks = 0;
  double marker = 0.0;
};

int failures = 0;
template <class... A>
void check(bool ok, fmt::format_string<A...> format, A&&... args) {
  if (ok) return;
  ++failures;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fmt::print(stderr, "rank {}: {}\n", rank, fmt::format(format, std::forward<A>(args)...));
}

std::vector<char*> argv_with(int argc, char** argv, std::vector<std::string>& extra) {
  std::vector<char*> out(argv, argv + argc);
  for (std::string& s : extra) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

int write(int argc, char** argv, const std::string& dir, bool interval) {
  std::vector<std::string> extra;
  if (interval) extra = {"--tessera_checkpoint_dir=" + dir, "--tessera_checkpoint_interval=2", "--tessera_checkpoint_keep=2"};
  std::vector<char*> args = argv_with(argc, argv, extra);
  int n = static_cast<int>(args.size()) - 1;
  char** p = args.data();
  tessera::Context ctx(n, p);
  auto cells = make_collection<Cell>(ctx.runtime(), Index1D{kCells});
  auto pixels = make_collection<Pixel>(ctx.runtime(), Index2D{kSide, kSide});
  const std::int64_t phases = interval ? 7 : kPhases;
  AppState state{phases, ctx.runtime().size(), 2.5};
  if (interval) {
    ctx.set_checkpoint_state([&ctx]() {
      AppState s{ctx.phases().phase(), ctx.runtime().size(), 2.5};
      const auto* b = reinterpret_cast<const std::byte*>(&s);
      return std::vector<std::byte>(b, b + sizeof s);
    });
  }
  for (std::int64_t phase = 0; phase < phases; ++phase) {
    if (ctx.runtime().rank() == 0) cells.broadcast_from_this_rank<&Cell::visit>(phase);
    ctx.phase_end();
  }
  if (!interval) {
    tessera::Buffer bytes;
    tessera::serial::encode(bytes, state);
    ctx.checkpoint(dir, bytes.view());
  }
  std::int64_t away = 0;
  cells.manager().for_each_local([&](Cell& c) { away += c.migrations() > 0 ? 1 : 0; });
  away = ctx.runtime().collectives().allreduce(away, tessera::op::sum{});
  if (ctx.runtime().rank() == 0) fmt::print("wrote {} after {} phases on {} ranks; {} cells had migrated\n", dir, phases, ctx.runtime().size(), away);
  cells.destroy();
  pixels.destroy();
  return 0;
}

int read(int argc, char** argv, const std::string& dir, bool other) {
  std::vector<std::string> extra{"--tessera_restart=" + dir};
  std::vector<char*> args = argv_with(argc, argv, extra);
  int n = static_cast<int>(args.size()) - 1;
  char** p = args.data();
  tessera::Context ctx(n, p);
  tessera::Runtime& rt = ctx.runtime();
  check(ctx.restarted(), "not restarted");
  const auto state = ctx.restart_state<AppState>();
  check(state.phases >= 1 && state.marker == 2.5, "application state: phases {}, marker {}", state.phases, state.marker);
  check(ctx.phases().phase() == state.phases, "phase counter {} after restart, expected {}", ctx.phases().phase(), state.phases);
  if (other) {
    auto wrong = make_collection<OtherCell>(rt, Index1D{kCells});
    wrong.destroy();
    return 1;  // not reached: the restart refuses the type
  }
  const bool same_ranks = state.ranks == rt.size();
  auto cells = make_collection<Cell>(rt, Index1D{kCells});
  auto pixels = make_collection<Pixel>(rt, Index2D{kSide, kSide});
  std::int64_t held = 0;
  cells.manager().for_each_local([&](Cell& c) {
    ++held;
    const std::int64_t i = c.index()[0];
    check(c.visits == state.phases, "cell {}: visits {}, expected {}", i, c.visits, state.phases);
    check(c.values == expected_values(i, state.phases), "cell {}: values differ", i);
    check(c.label == fmt::format("cell{}", i), "cell {}: label '{}'", i, c.label);
    if (!same_ranks) check(block_map<1>(c.index(), Index1D{kCells}, rt.size()) == rt.rank(), "cell {} is not at its new home", i);
  });
  pixels.manager().for_each_local([&](Pixel& px) {
    ++held;
    check(px.value == mix(static_cast<std::uint64_t>(px.index()[0] * kSide + px.index()[1])), "pixel ({}, {}): wrong value", px.index()[0], px.index()[1]);
  });
  const std::int64_t total = rt.collectives().allreduce(held, tessera::op::sum{});
  check(total == kCells + kSide * kSide, "{} elements restored, expected {}", total, kCells + kSide * kSide);
  std::int64_t moved = 0;
  cells.manager().for_each_local([&](Cell& c) { moved += static_cast<std::int64_t>(c.migrations()); });
  moved = rt.collectives().allreduce(moved, tessera::op::sum{});
  check(moved > 0 || state.ranks == 1, "no cell kept its migration count");  // one rank: nowhere to go
  // Every restored element is reachable: each rank pings every cell once.
  for (std::int64_t i = 0; i < kCells; ++i) cells[Index1D{i}].send<&Cell::ping>();
  ctx.phase_end();
  std::int64_t pings = 0;
  cells.manager().for_each_local([&](Cell& c) { pings += c.pings; });
  pings = rt.collectives().allreduce(pings, tessera::op::sum{});
  check(pings == kCells * rt.size(), "{} pings delivered, expected {}", pings, kCells * rt.size());
  const int failed = rt.collectives().allreduce(failures, tessera::op::sum{});
  if (rt.rank() == 0)
    fmt::print("restarted from {} ({} ranks, now {}; placement {}): {} elements, {} failures\n", ctx.restart_dir().string(),
               state.ranks, rt.size(), same_ranks ? "kept" : "by mapper", total, failed);
  cells.destroy();
  pixels.destroy();
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s write|write-interval|read|read-other DIR\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  const std::string dir = argv[2];
  argv[2] = argv[0];  // Context sees the program name and whatever follows DIR
  if (mode == "write") return write(argc - 2, argv + 2, dir, false);
  if (mode == "write-interval") return write(argc - 2, argv + 2, dir, true);
  if (mode == "read") return read(argc - 2, argv + 2, dir, false);
  if (mode == "read-other") return read(argc - 2, argv + 2, dir, true);
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
