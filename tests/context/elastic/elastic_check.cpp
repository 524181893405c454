// tessera-elastic-check: a run whose rank set shrinks at phase ends (--tessera_elastic_plan,
// --tessera_elastic_control, or --shrink-from-code P:R,R) and that checks every element's state
// exactly at the end, against what a run on any fixed rank count computes.
//
// Two collections: 37 cells (1-D, a prime) that a broadcast visits each phase, each sending a
// value to its right neighbour and every third moving one rank up; and a dynamic collection of 4
// tokens, one inserted and one destroyed each phase (so indices are inserted again after a
// rescale) and touched by element messages. Each state is a function of its index and the
// phases, so the check needs no other run; the fingerprint printed by rank 0 lets a script
// compare runs on different rank counts too. A rank that leaves prints how long it waited at
// exit and the CPU time it used meanwhile.
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace tessera::collections;

constexpr std::int64_t kCells = 37;
constexpr std::int64_t kTokens = 4;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Cell : Element<Cell, 1> {
  std::vector<double> values;
  std::uint64_t received = 0;  // a sum of neighbours' values: the same whatever the order
  std::int64_t visits = 0;

  Cell() = default;
  explicit Cell(const Index1D& idx) : values(static_cast<std::size_t>(idx[0] % 5 + 1), 0.0) {}

  void visit(std::int64_t phase) {
    ++visits;
    const std::int64_t i = index()[0];
    for (std::size_t k = 0; k < values.size(); ++k) values[k] += static_cast<double>(mix(phase * 1000 + i * 10 + k) % 1000) / 8.0;
    proxy()[Index1D{(i + 1) % kCells}].send<&Cell::add>(mix(static_cast<std::uint64_t>(phase * 1000 + i)));
    if ((i + phase) % 3 == 0) migrate((runtime().rank() + 1) % runtime().size());
  }
  void add(std::uint64_t value) { received += value; }
  template <class Archive>
  void serialize(Archive& archive) {
    archive(values, received, visits);
  }
};

struct Token : Element<Token, 1> {
  std::int64_t born = -1;
  std::int64_t touches = 0;
  Token() = default;
  explicit Token(std::int64_t phase) : born(phase) {}
  void touch() { ++touches; }
  template <class Archive>
  void serialize(Archive& archive) {
    archive(born, touches);
  }
};

struct Expected {
  std::vector<double> values;
  std::uint64_t received = 0;
};
Expected expected_cell(std::int64_t i, std::int64_t phases) {
  Expected e{std::vector<double>(static_cast<std::size_t>(i % 5 + 1), 0.0), 0};
  const std::int64_t left = (i + kCells - 1) % kCells;
  for (std::int64_t p = 0; p < phases; ++p) {
    for (std::size_t k = 0; k < e.values.size(); ++k) e.values[k] += static_cast<double>(mix(p * 1000 + i * 10 + k) % 1000) / 8.0;
    e.received += mix(static_cast<std::uint64_t>(p * 1000 + left));
  }
  return e;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

struct Options {
  std::int64_t phases = 8;
  std::int64_t shrink_phase = -1;  // --shrink-from-code P:R,R
  std::vector<int> shrink_ranks;
  double hold_s = 0.0;             // --hold S: rank 0 sleeps S seconds after the last phase
  bool expand_at_end = false;      // --expand-at-end: an expand asked for at the last phase end
};

// When a rank left: the process CPU time and the wall clock then (before its Context's end waits).
struct Leave {
  bool left = false;
  double cpu_s = 0.0;
  std::chrono::steady_clock::time_point at;
};

int run(int& argc, char**& argv, const Options& options, Leave& leave, int& rank_at_start) {
  tessera::Context ctx(argc, argv);
  if (ctx.help_shown()) return 0;
  tessera::Runtime& rt = ctx.runtime();
  rank_at_start = rt.rank();
  if (options.expand_at_end) ctx.set_join_state([] { return std::vector<std::byte>(); });
  auto cells = ctx.make_collection<Cell>(Index1D{kCells});
  auto tokens = ctx.make_dynamic_collection<Token>(Index1D{kTokens});
  std::int64_t phase = 0;
  for (; phase < options.phases; ++phase) {
    if (rt.rank() == 0) {
      if (phase >= 2) tokens[Index1D{(phase - 2) % kTokens}].destroy();
      tokens[Index1D{phase % kTokens}].insert(phase);
      tokens[Index1D{phase % kTokens}].send<&Token::touch>();
      if (phase >= 1) tokens[Index1D{(phase - 1) % kTokens}].send<&Token::touch>();
      cells.broadcast_from_this_rank<&Cell::visit>(phase);
    }
    if (phase == options.shrink_phase) ctx.request_shrink(options.shrink_ranks);
    ctx.phase_end();
    if (ctx.left()) {
      leave = Leave{true, cpu_seconds(), std::chrono::steady_clock::now()};
      return 0;
    }
  }
  if (rt.rank() == 0 && options.hold_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(options.hold_s));

  // The check: every element where exactly one rank holds it, in the state the phases make.
  int failures = 0;
  const auto fail = [&](const std::string& what) {
    ++failures;
    fmt::print(stderr, "rank {}: {}\n", rt.rank(), what);
  };
  std::uint64_t fingerprint = 0;
  std::int64_t held = 0;
  cells.manager().for_each_local([&](Cell& c) {
    ++held;
    const std::int64_t i = c.index()[0];
    const Expected e = expected_cell(i, phase);
    if (c.visits != phase) fail(fmt::format("cell {}: {} visits, expected {}", i, c.visits, phase));
    if (c.values != e.values) fail(fmt::format("cell {}: values differ", i));
    if (c.received != e.received) fail(fmt::format("cell {}: received {}, expected {}", i, c.received, e.received));
    std::uint64_t h = mix(static_cast<std::uint64_t>(i) ^ c.received ^ static_cast<std::uint64_t>(c.visits));
    for (double v : c.values) h = mix(h ^ static_cast<std::uint64_t>(v * 8.0));
    fingerprint ^= h;
  });
  std::int64_t live_tokens = 0;
  tokens.manager().for_each_local([&](Token& t) {
    ++live_tokens;
    const std::int64_t expected_touches = t.born == phase - 1 ? 1 : 2;
    if (t.born < phase - 2 || t.born % kTokens != t.index()[0])
      fail(fmt::format("token {} born in phase {} is still live after {} phases", t.index()[0], t.born, phase));
    if (t.touches != expected_touches) fail(fmt::format("token {}: {} touches, expected {}", t.index()[0], t.touches, expected_touches));
    fingerprint ^= mix(0x70cull ^ static_cast<std::uint64_t>(t.born * 100 + t.touches));
  });
  // Every element is reachable on the final rank set: each rank pings every cell, once every
  // rank has checked the states the pings change.
  rt.collectives().allreduce(0, tessera::op::sum{});
  for (std::int64_t i = 0; i < kCells; ++i) cells[Index1D{i}].send<&Cell::add>(std::uint64_t{1});
  // In the background, this last phase end only starts the expand: the run ends first and
  // turns the new process away.
  if (options.expand_at_end) ctx.request_expand(1);
  ctx.phase_end();
  std::uint64_t extra = 0;
  cells.manager().for_each_local([&](Cell& c) { extra += c.received - expected_cell(c.index()[0], phase).received; });
  held = rt.collectives().allreduce(held, tessera::op::sum{});
  live_tokens = rt.collectives().allreduce(live_tokens, tessera::op::sum{});
  extra = rt.collectives().allreduce(extra, tessera::op::sum{});
  fingerprint = rt.collectives().allreduce(fingerprint, [](std::uint64_t a, std::uint64_t b) { return a ^ b; });
  if (rt.rank() == 0) {
    if (held != kCells) fail(fmt::format("{} cells held, expected {}", held, kCells));
    if (live_tokens != std::min<std::int64_t>(2, phase)) fail(fmt::format("{} tokens live, expected 2", live_tokens));
    if (extra != static_cast<std::uint64_t>(kCells * rt.size()))
      fail(fmt::format("{} pings delivered, expected {}", extra, kCells * rt.size()));
  }
  failures = rt.collectives().allreduce(failures, tessera::op::sum{});
  if (rt.rank() == 0)
    fmt::print("elastic check: {} phases, {} ranks at the end ({} rescale(s)), fingerprint {:016x}, {} failure(s)\n", phase,
               rt.size(), rt.rescales(), fingerprint, failures);
  cells.destroy();
  tokens.destroy();
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--expand-at-end") {
      options.expand_at_end = true;
    } else if (a == "--phases" && i + 1 < argc) {
      options.phases = std::stoll(argv[++i]);
    } else if (a == "--hold" && i + 1 < argc) {
      options.hold_s = std::stod(argv[++i]);
    } else if (a == "--shrink-from-code" && i + 1 < argc) {
      const std::string spec = argv[++i];
      const auto colon = spec.find(':');
      options.shrink_phase = std::stoll(spec.substr(0, colon));
      for (std::size_t at = colon + 1; at < spec.size();) {
        std::size_t end = spec.find(',', at);
        if (end == std::string::npos) end = spec.size();
        options.shrink_ranks.push_back(std::stoi(spec.substr(at, end - at)));
        at = end + 1;
      }
    } else {
      args.push_back(argv[i]);
    }
  }
  args.push_back(nullptr);
  int n = static_cast<int>(args.size()) - 1;
  char** p = args.data();
  Leave leave;
  int rank = 0;
  const int status = run(n, p, options, leave, rank);
  // The Context is gone here: a rank that left has waited for every process.
  if (leave.left) {
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - leave.at).count();
    std::printf("rank %d left: waited %.3f s at exit using %.3f s of CPU\n", rank, waited, cpu_seconds() - leave.cpu_s);
    std::fflush(stdout);
  }
  return status;
}
