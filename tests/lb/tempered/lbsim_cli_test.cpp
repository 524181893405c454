// The lbsim executable: its JSON line, its files, and one clear error with a non-zero exit for
// every bad input (missing rank files, disagreeing phases, unknown keys, fanout < 1, bad specs).

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tessera/lb/lb_data_io.hpp"

namespace {

namespace fs = std::filesystem;

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / ("tessera_lbsim_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// Removes the scratch directory once every test has run.
class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(scratch()); }
};
const auto* const cleanup = ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

CliResult lbsim(const std::string& args) {
  const fs::path dir = scratch();
  const std::string cmd = std::string(TESSERA_LBSIM) + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  return r;
}

std::string last_line(const std::string& text) {
  std::string line, last;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

const std::string toy = std::string(TESSERA_LBAF_DATA_DIR) + "/data/challenging_toy_fewer_tasks/toy";

TEST(LbsimCli, JsonLineHasTheDocumentedKeys) {
  const auto r = lbsim("--synthetic 'objects=300 ranks=64 mapped=2 seed=3' --strategy TemperedLB "
                       "--args 'iters=3 trials=1 deterministic=true' --report=json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(last_line(r.out));
  for (const char* key : {"initial_imbalance", "final_imbalance", "lower_bound_imbalance", "migrations",
                          "strategy_s", "iterations", "phases"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  ASSERT_EQ(j["iterations"].size(), 3u);
  for (const char* key : {"iteration", "transfers", "rejected", "imbalance"}) EXPECT_TRUE(j["iterations"][0].contains(key));
  ASSERT_EQ(j["phases"].size(), 1u);
  for (const char* key : {"phase", "count", "sum", "imbalance"}) EXPECT_TRUE(j["phases"][0].contains(key));
  EXPECT_EQ(j["phases"][0]["count"], 64);
  EXPECT_LT(j["final_imbalance"].get<double>(), j["initial_imbalance"].get<double>());
}

TEST(LbsimCli, RecordedDataTableStatsAndOut) {
  const fs::path out = scratch() / "placed";
  const auto r = lbsim("--data " + toy + " --strategy GreedyLB --args mode=full --stats --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lbsim: 16 ranks, 274 objects, phase 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("migrations"), std::string::npos);
  const auto placed = tessera::lb::read_lb_data(out);
  EXPECT_EQ(placed.ranks.size(), 16u);
}

TEST(LbsimCli, NodesFromTheCommandLineOrTheData) {
  // The LBAF toy has no shared_node (a node per rank); --ranks-per-node 4 puts its 16 ranks on 4
  // nodes, which --out writes as shared_node, and a run on that output finds the same 4 nodes.
  const fs::path out = scratch() / "noded";
  const auto r = lbsim("--data " + toy + " --ranks-per-node 4 --strategy HierLB --work 'beta=1e-9 gamma=1e-10' --out " +
                       out.string() + " --report=json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(last_line(r.out))["nodes"], 4);
  const auto placed = tessera::lb::read_lb_data(out);
  EXPECT_EQ(placed.node_map(), tessera::lb::NodeMap::blocks(16, 4));
  ASSERT_TRUE(placed.ranks[5].shared_node.has_value());
  EXPECT_EQ(*placed.ranks[5].shared_node, (tessera::lb::SharedNode{1, 4, 1, 4}));
  const auto again = lbsim("--data " + out.string() + " --strategy TemperedLB --args 'beta=1e-9 gamma=1e-10'");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("lbsim: 16 ranks on 4 nodes, 274 objects"), std::string::npos) << again.out;
  const auto plain = lbsim("--data " + toy + " --report=json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(nlohmann::json::parse(last_line(plain.out))["nodes"], 16);
}

TEST(LbsimCli, WhatIfOnMoreRanks) {
  const auto r = lbsim("--data " + toy + " --ranks 32 --strategy TemperedLB --report=json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(last_line(r.out))["migrations"].get<int>() > 0, true);
}

TEST(LbsimCli, SplitAndMergeBeforeTheStrategy) {
  // The LBAF toy on its 16 ranks: objects above a quarter of the average rank load are split,
  // pairs of co-located objects below half the average object load merged; GreedyLB places them.
  const auto whole = lbsim("--data " + toy + " --strategy GreedyLB --report=json");
  const auto reshaped = lbsim("--data " + toy + " --strategy GreedyLB --split_above 0.25 --merge_below 0.5 --report=json");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  ASSERT_EQ(reshaped.exit_code, 0) << reshaped.err;
  const auto a = nlohmann::json::parse(last_line(whole.out)), b = nlohmann::json::parse(last_line(reshaped.out));
  EXPECT_FALSE(a.contains("splits"));
  EXPECT_GT(b["splits"].get<int>(), 0);
  EXPECT_GT(b["merges"].get<int>(), 0);
  EXPECT_EQ(b["merged"].get<int>(), 2 * b["merges"].get<int>());
  // The same total load in pieces that fit: no worse a bound.
  EXPECT_LE(b["lower_bound_imbalance"].get<double>(), a["lower_bound_imbalance"].get<double>());
  const auto table = lbsim("--data " + toy + " --split_above 0.25");
  EXPECT_NE(table.out.find("split "), std::string::npos) << table.out;
}

TEST(LbsimCli, LeavingRanksAreEmptiedAndTheRestBalanced) {
  // The LBAF toy on its 16 ranks, ranks 0, 7 and 15 leaving: each strategy empties them, and the
  // final imbalance is over the 13 that stay.
  for (const char* strategy : {"GreedyLB", "HierLB", "TemperedLB"}) {
    SCOPED_TRACE(strategy);
    const auto r = lbsim("--data " + toy + " --strategy " + strategy + " --leaving 15,0,7 --report=json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(last_line(r.out));
    EXPECT_EQ(j["leaving"], nlohmann::json::parse("[0, 7, 15]"));
    EXPECT_EQ(j["left_on_leaving"].get<int>(), 0);
    EXPECT_LT(j["final_imbalance"].get<double>(), j["initial_imbalance"].get<double>());
  }
  const auto table = lbsim("--data " + toy + " --strategy GreedyLB --leaving 3");
  EXPECT_NE(table.out.find("shrink: ranks 3 leave; objects left on them: 0"), std::string::npos) << table.out;
}

void expect_error(const std::string& args, const std::string& message) {
  SCOPED_TRACE(args);
  const auto r = lbsim(args);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
}

TEST(LbsimCli, BadInputsFailWithOneClearMessage) {
  expect_error("--data /nonexistent/dir/stem", "/nonexistent/dir");
  expect_error("--data " + toy + " --phase 7", "--phase 7: the data has no such phase; phases: 0");
  expect_error("--synthetic 'objects=ten'", "--synthetic: objects=ten: expected an integer >= 0");
  expect_error("--synthetic '' --strategy NoSuchLB", "unknown LB strategy 'NoSuchLB'");
  expect_error("--data " + toy + " --leaving 3", "--leaving needs --strategy NAME");
  expect_error("--data " + toy + " --strategy GreedyLB --leaving 16", "--leaving 16: expected a rank in [0, 16)");
  expect_error("--data " + toy + " --strategy GreedyLB --leaving 2,2", "--leaving names rank 2 twice");
  expect_error("--data " + toy + " --strategy GreedyLB --leaving 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
               "--leaving names every rank");
  expect_error("--data " + toy + " --strategy GreedyLB --leaving one", "--leaving");
  expect_error("--synthetic '' --strategy TemperedLB --args 'fanout=0'", "TemperedLB: fanout=0: expected");
  expect_error("--synthetic '' --strategy TemperedLB --args 'speed=3'", "TemperedLB: unknown key 'speed'");
  expect_error("--synthetic '' --work 'alpha=one'", "--work: alpha=one: expected a number");
  expect_error("--synthetic '' --report=xml", "--report");
  expect_error("", "give exactly one input");
  expect_error("--synthetic '' --model median:0", "--model median:0: expected persistence, median:N or linear:N");
  expect_error("--synthetic '' --split_above -1", "--split_above");
  expect_error("--data " + toy + " --split_above 1 --out /tmp/x", "--out with --split_above or --merge_below");
}

// `lbsim advise` on a real vt recording: every grid row, ranked, with the no-LB row's prediction
// the sum over phases of the most loaded rank's recorded load.
TEST(LbsimAdvise, RanksEveryGridRowOnARecording) {
  const std::string nolb = std::string(TESSERA_LBAF_DATA_DIR) + "/data/nolb-8color-16nodes-11firstphases/data";
  const auto r = lbsim("advise --data " + nolb + " --report=json --strategy-cost 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto json = nlohmann::json::parse(last_line(r.out));
  const auto& rows = json["rows"];
  ASSERT_EQ(rows.size(), 145u);
  double none = -1.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) {
      EXPECT_LE(rows[i - 1]["predicted_s"].get<double>(), rows[i]["predicted_s"].get<double>());
    }
    if (rows[i]["flags"] == "") none = rows[i]["predicted_s"].get<double>();
  }
  const auto data = tessera::lb::read_lb_data(nolb);
  double expected = 0.0;
  for (auto phase : data.phase_ids()) {
    const auto loads = data.rank_loads(phase);
    expected += *std::max_element(loads.begin(), loads.end());
  }
  EXPECT_DOUBLE_EQ(none, expected);
  EXPECT_EQ(json["bandwidth_source"], "lbsim's default; the LB data records no migrations of its own");
  EXPECT_NE(r.out.find("rank   predicted s"), std::string::npos) << r.out;
}

TEST(LbsimAdvise, BadInputsFailWithOneClearMessage) {
  expect_error("advise --data " + toy + " --phases 0:99", "--phases 0:99: the LB data lacks phase 99; the data has phases 0..");
  expect_error("advise --data " + toy + " --phases 7", "--phases 7: expected A:B, two phase ids");
  expect_error("advise --data " + toy + " --bandwidth 0", "--bandwidth 0: expected GB/s > 0");
  expect_error("advise --data " + toy + " --bandwidth -2", "--bandwidth -2: expected GB/s > 0");
  expect_error("advise --data " + toy + " --strategy GrapevineLB --args fanout=3",
               "--args fanout=3: outside GrapevineLB's advise grid; expected fanout in: 2, 6");
  expect_error("advise --data /nonexistent/dir/stem", "/nonexistent/dir");
}

void rank_file(const fs::path& file, int rank, int phase) {
  std::ofstream(file) << R"({"type":"LBDatafile","metadata":{"type":"LBDatafile","rank":)" << rank
                      << R"(},"phases":[{"id":)" << phase << R"(,"tasks":[]}]})";
}

TEST(LbsimCli, MissingRankFileIsNamed) {
  const fs::path dir = scratch() / "gap";
  fs::create_directories(dir);
  rank_file(dir / "g.0.json", 0, 0);
  rank_file(dir / "g.2.json", 2, 0);
  expect_error("--data " + (dir / "g").string(), "g.1.json: missing");
}

TEST(LbsimCli, PhasesThatDisagreeAcrossFilesAreRejected) {
  const fs::path dir = scratch() / "disagree";
  fs::create_directories(dir);
  rank_file(dir / "d.0.json", 0, 0);
  rank_file(dir / "d.1.json", 1, 1);
  expect_error("--data " + (dir / "d").string(), "d.1.json");
}

}  // namespace
