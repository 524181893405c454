// Timeline traces of a 2-rank run: well formed for a viewer (checked rule by rule), exact in
// what they count, and each bad input refused on every rank.
#include <tessera/runtime.hpp>
#include <tessera/runtime/trace.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "trace_checker.hpp"

#include "../../support/test_runtime.hpp"

namespace {

constexpr int kPings = 200;
int pongs = 0;

void pong(int) { ++pongs; }
void ping(int i) { tessera::this_runtime().send<&pong>(0, i); }

// Runs the ping-pong pattern (rank 0 pings rank 1 kPings times, each ping answered) in a runtime
// of its own, with `flags`; returns whether this rank was still tracing at the end.
bool run_ping_pong(const std::vector<std::string>& flags) {
  std::vector<std::string> args{"trace_test"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  char** argv_ptr = argv.data();
  tessera::RuntimeOptions options;
  options.app_comm = MPI_COMM_WORLD;
  options.exit_on_flag_error = false;
  tessera::Runtime rt(argc, argv_ptr, options);
  pongs = 0;
  if (rt.rank() == 0)
    for (int i = 0; i < kPings; ++i) rt.send<&ping>(1, i);
  rt.run_until([&] { return rt.rank() != 0 || pongs == kPings; });
  rt.drain();
  return rt.tracer() != nullptr && rt.tracer()->active();
}

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

std::int64_t count_suffix(const tessera::testing::TraceSummary& summary, int pid, const std::string& suffix) {
  std::int64_t n = 0;
  for (const auto& [key, count] : summary.slices)
    if (key.first == pid && key.second.ends_with(suffix)) n += count;
  return n;
}

std::int64_t handler_slices(const tessera::testing::TraceSummary& summary) {
  std::int64_t n = 0;
  for (const auto& [key, count] : summary.slices)
    if (key.second != "idle") n += count;
  return n;
}

TEST(Trace, PingPongIsWellFormedAndExact) {
  const std::filesystem::path dir = "trace_test_pingpong";
  const bool active = run_ping_pong({"--tessera_trace=" + dir.string(), "--tessera_trace_flow_sample=1"});
  EXPECT_TRUE(active);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank() != 0) return;
  const auto summary = tessera::testing::check_trace(read_json(dir / "trace.json"));
  for (const auto& error : summary.errors) ADD_FAILURE() << error;
  EXPECT_EQ(count_suffix(summary, 1, "::ping"), kPings);
  EXPECT_EQ(count_suffix(summary, 0, "::pong"), kPings);
  EXPECT_EQ(count_suffix(summary, 0, "::ping"), 0);
  EXPECT_EQ(count_suffix(summary, 1, "::pong"), 0);
  // Every record is sampled at 1, and every record runs a handler: one flow per handler slice.
  EXPECT_EQ(summary.flows, handler_slices(summary));
  EXPECT_GE(summary.flows, 2 * kPings);
}

TEST(Trace, FlowSampleZeroJoinsNothingAndCountsStayExact) {
  const std::filesystem::path dir = "trace_test_noflow";
  run_ping_pong({"--tessera_trace=" + dir.string(), "--tessera_trace_flow_sample=0"});
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank() != 0) return;
  const auto summary = tessera::testing::check_trace(read_json(dir / "trace.json"));
  EXPECT_TRUE(summary.errors.empty());
  EXPECT_EQ(summary.flows, 0);
  EXPECT_EQ(count_suffix(summary, 1, "::ping"), kPings);
}

TEST(Trace, SizeLimitStopsTracingAndKeepsTheTraceWellFormed) {
  const std::filesystem::path dir = "trace_test_limit";
  const bool active = run_ping_pong({"--tessera_trace=" + dir.string(), "--tessera_trace_max_mb=0.01",
                                     "--tessera_trace_flow_sample=0"});  // flows into a stopped rank end nowhere
  // 200 pings and their slices need far more than 10 KiB on rank 1, which answers all of them.
  if (rank() == 1) {
    EXPECT_FALSE(active);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank() != 0) return;
  const auto summary = tessera::testing::check_trace(read_json(dir / "trace.json"));
  for (const auto& error : summary.errors) ADD_FAILURE() << error;
  EXPECT_GT(count_suffix(summary, 1, "::ping"), 0);
  EXPECT_LT(count_suffix(summary, 1, "::ping"), kPings);
}

TEST(Trace, MergeKeepsEveryEventAndDropsALineCutShort) {
  const std::filesystem::path dir = "trace_test_pingpong";  // written by the first test
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank() != 0) return;
  const std::filesystem::path cut = "trace_test_cut";
  std::filesystem::remove_all(cut);
  std::filesystem::create_directories(cut);
  std::filesystem::copy_file(dir / "rank.0.json", cut / "rank.0.json");
  // A run killed mid-write: rank 1's file ends inside an event, with no closing bracket.
  {
    std::ifstream in(dir / "rank.1.json");
    std::ofstream out(cut / "rank.1.json");
    std::string line;
    int kept = 0;
    while (std::getline(in, line) && kept < 50) {
      out << line << '\n';
      ++kept;
    }
    out << R"({"ph":"B","pid":1,"tid":0,"ts":1)";
  }
  tessera::merge_trace(cut, cut / "merged.json");
  const auto merged = read_json(cut / "merged.json");
  std::int64_t from_rank1 = 0;
  for (const auto& e : merged["traceEvents"]) from_rank1 += e["pid"] == 1 ? 1 : 0;
  EXPECT_EQ(from_rank1, 49);  // the first line is the array's "["

  EXPECT_THROW(tessera::merge_trace("trace_test_no_such_dir", cut / "x.json"), tessera::Error);
}

TEST(Trace, UnwritableDirectoryIsRefusedOnEveryRank) {
  try {
    run_ping_pong({"--tessera_trace=/dev/null/trace"});
    ADD_FAILURE() << "the runtime started with an unwritable trace directory";
  } catch (const tessera::Error& e) {
    if (rank() == 0) {
      EXPECT_NE(std::string(e.what()).find("/dev/null/trace/rank.0.json"), std::string::npos) << e.what();
    }
  }
}

TEST(Trace, BadFlowSampleIsRefused) {
  tessera::TraceFlags flags;
  for (const char* bad : {"2", "1/0", "-0.5", "abc", "1/", ""}) {
    flags.flow_sample = bad;
    EXPECT_THROW(flags.validate(), tessera::Error) << bad;
  }
  flags.flow_sample = "1/64";
  EXPECT_DOUBLE_EQ(flags.flow_fraction(), 1.0 / 64);
  flags.flow_sample = "0.25";
  EXPECT_DOUBLE_EQ(flags.flow_fraction(), 0.25);
  flags.max_mb = 0;
  flags.flow_sample = "1";
  EXPECT_THROW(flags.validate(), tessera::Error);
}

TEST(Trace, PingPongClockOffsetIsWithinHalfTheRoundTrip) {
  // Both ranks read one machine's steady clock, so the true offset is 0 and Cristian's estimate
  // must land within half of its shortest round trip.
  const tessera::ClockOffset offset = tessera::align_clock(MPI_COMM_WORLD, false, 16);
  if (rank() == 0) {
    EXPECT_EQ(offset.offset_ns, 0);
  } else {
    EXPECT_GT(offset.round_trip_ns, 0);
    EXPECT_LE(std::abs(offset.offset_ns), offset.round_trip_ns / 2 + 1) << offset.round_trip_ns;
  }
  // On one node, the default shares the clock: no measurement, offset 0 everywhere.
  EXPECT_EQ(tessera::align_clock(MPI_COMM_WORLD, true).offset_ns, 0);
}

}  // namespace
