// LBDatafile I/O against the real vt/LBAF recordings in tests/data/lbaf: every set in this
// format loads, rank loads match figures computed independently (SOURCE.md's table), brotli and
// plain copies of one set read the same, and write-then-read is the identity.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/statistics.hpp"

namespace tessera::lb {
namespace {

const std::filesystem::path root = TESSERA_LBAF_DATA_DIR;

struct Set {
  const char* stem;  // relative to the LBAF data root
  Rank ranks;
  std::size_t phases;
};

// Not listed, because they hold other formats: data/nolb-data and data/vt_example_lb_data (.vom
// CSV), the *.yaml specifications, tests/unit/data/JSON_data_file_validator_stats (LBStatsfile),
// tests/unit/data/schema and vt-tv/data/reader_test_data (single files not named STEM.<rank>.json).
const Set sets[] = {
    {"data/ccm_example/data", 2, 1},
    {"data/synthetic-blocks/synthetic-dataset-blocks", 4, 1},
    {"data/synthetic-blocks/synthetic-dataset-blocks-alpha0", 4, 1},
    {"data/user-defined-memory-toy-problem/toy_mem", 4, 1},
    {"data/user-defined-memory-toy-problem/toy_mem_README", 4, 1},
    {"data/user-defined-memory-toy-problem/toy_mem_optimal", 4, 1},
    {"data/challenging_toy_fewer_tasks/toy", 16, 1},
    {"data/nolb-8color-16nodes-11firstphases/data", 32, 11},
    {"tests/unit/data/vt_lb_test_data/data", 4, 8},
    {"tests/unit/data/JSON_data_file_validator/data", 4, 1},
    {"tests/unit/data/JSON_data_file_validator_compressed/data", 4, 1},
    {"tests/unit/data/JSON_data_file_validator_comm_links/data", 3, 1},
    {"tests/unit/data/synthetic_lb_data_compressed/data", 4, 1},
    {"vt-tv/data/ccm_example/data", 2, 1},
    {"vt-tv/data/lb_test_data/data", 4, 8},
    {"vt-tv/data/lb_test_data_compressed/data", 4, 8},
    {"vt-tv/data/synthetic_attributes_compressed/data", 4, 8},
};

TEST(LbDataIo, EverySetLoadsWithAgreeingPhasesAndRankLoadsSumTaskTimes) {
  for (const auto& set : sets) {
    SCOPED_TRACE(set.stem);
    const LbData data = read_lb_data(root / set.stem);
    ASSERT_EQ(data.ranks.size(), static_cast<std::size_t>(set.ranks));
    EXPECT_EQ(data.phase_ids().size(), set.phases);
    for (PhaseId phase : data.phase_ids()) {
      const auto loads = data.rank_loads(phase);
      for (Rank r = 0; r < set.ranks; ++r) {
        const Phase* p = data.ranks[r].find_phase(phase);
        if (p == nullptr) {  // a rank that recorded nothing
          EXPECT_TRUE(data.ranks[r].phases.empty());
          EXPECT_EQ(loads[r], 0.0);
          continue;
        }
        const double sum = std::accumulate(p->tasks.begin(), p->tasks.end(), 0.0,
                                           [](double s, const Task& t) { return s + t.time; });
        EXPECT_DOUBLE_EQ(loads[r], sum);
      }
    }
  }
}

struct Expected {
  const char* stem;
  PhaseId phase;
  double total;
  double imbalance;
};

// From SOURCE.md's table, computed by a script independent of this reader.
const Expected figures[] = {
    {"data/ccm_example/data", 0, 10.5, 0.047619},
    {"data/synthetic-blocks/synthetic-dataset-blocks", 0, 8.0, 1.0},
    {"data/user-defined-memory-toy-problem/toy_mem", 0, 350.0, 1.17143},
    {"data/user-defined-memory-toy-problem/toy_mem_README", 0, 350.0, 0.0285714},
    {"data/user-defined-memory-toy-problem/toy_mem_optimal", 0, 350.0, 0.0},
    {"data/challenging_toy_fewer_tasks/toy", 0, 16033.0, 1.91698},
    {"data/nolb-8color-16nodes-11firstphases/data", 0, 10.5721, 0.992946},
    {"tests/unit/data/JSON_data_file_validator_comm_links/data", 0, 8.0, 0.5},
};

TEST(LbDataIo, RankLoadStatisticsMatchIndependentFigures) {
  for (const auto& f : figures) {
    SCOPED_TRACE(f.stem);
    const LbData data = read_lb_data(root / f.stem);
    const Statistics s = statistics(data.rank_loads(f.phase));
    EXPECT_NEAR(s.sum, f.total, 1e-4 * f.total);
    EXPECT_NEAR(s.imbalance(), f.imbalance, 5e-4 * std::max(1.0, f.imbalance));
  }
  const LbData vt = read_lb_data(root / "data/nolb-8color-16nodes-11firstphases/data");
  EXPECT_NEAR(statistics(vt.rank_loads(1)).imbalance(), 4.94672, 5e-5);
  EXPECT_NEAR(statistics(vt.rank_loads(9)).imbalance(), 1.45364, 5e-5);
}

TEST(LbDataIo, BrotliAndPlainCopiesReadTheSame) {
  EXPECT_EQ(read_lb_data(root / "vt-tv/data/lb_test_data/data"),
            read_lb_data(root / "vt-tv/data/lb_test_data_compressed/data"));
  EXPECT_EQ(read_lb_data(root / "tests/unit/data/JSON_data_file_validator/data"),
            read_lb_data(root / "tests/unit/data/JSON_data_file_validator_compressed/data"));
}

TEST(LbDataIo, WriteThenReadIsIdentity) {
  const auto out = std::filesystem::temp_directory_path() / ("tessera_lb_io_" + std::to_string(::getpid()));
  bool compress = false;
  for (const auto& set : sets) {
    SCOPED_TRACE(set.stem);
    const LbData data = read_lb_data(root / set.stem);
    std::filesystem::remove_all(out);
    write_lb_data(data, out / "copy", WriteOptions{compress, compress ? -1 : 1});
    EXPECT_EQ(read_lb_data(out / "copy"), data);
    compress = !compress;
  }
  std::filesystem::remove_all(out);
}

void expect_error(const std::filesystem::path& stem, const std::vector<std::string>& parts) {
  try {
    (void)read_lb_data(stem);
    ADD_FAILURE() << "expected DataError for " << stem;
  } catch (const DataError& e) {
    for (const auto& part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(LbDataIo, MalformedInputsNameFilePhaseAndField) {
  expect_error(root / "tests/unit/data/synthetic_lb_data_wrong_schema/data",
               {"data.0.json", "phase 0", "missing field 'tasks'"});
  expect_error(root / "data/nolb-data/data", {"no files named data.<rank>.json"});

  const auto dir = std::filesystem::temp_directory_path() / ("tessera_lb_bad_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto put = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
  };
  const std::string task = R"({"entity":{"type":"object","id":1,"migratable":true},"node":0,"resource":"cpu","time":1.5})";
  put("a.0.json", R"({"type":"LBDatafile","phases":[{"id":3,"tasks":[)" + task + R"(,{"entity":{"id":2},"node":0,"time":"x"}]}]})");
  expect_error(dir / "a", {"a.0.json", "phase 3", "tasks[1].time", "expected a number"});

  put("b.0.json", R"({"phases":[{"id":0,"tasks":[)" + task + "]}]}");
  put("b.1.json", R"({"phases":[{"id":1,"tasks":[]}]})");
  expect_error(dir / "b", {"b.1.json", "phase 1", "disagrees with phase 0"});

  put("c.0.json", R"({"phases":[]})");
  put("c.2.json", R"({"phases":[]})");
  expect_error(dir / "c", {"c.1.json", "missing"});

  put("d.0.json", R"({"phases":[{"id":0,"tasks":[)" + task.substr(0, 40));
  expect_error(dir / "d", {"d.0.json", "malformed JSON"});

  put("e.0.json", "\x8b\x01\x80garbage");
  expect_error(dir / "e", {"e.0.json", "neither JSON nor a complete brotli stream"});

  put("f.0.json", R"({"phases":[{"id":0,"tasks":[{"entity":{"seq_id":4,"migratable":true},"node":0,"time":1}]}]})");
  expect_error(dir / "f", {"f.0.json", "phase 0", "tasks[0].entity", "requires 'collection_id'"});

  put("g.1.json", R"({"metadata":{"rank":0},"phases":[]})");
  put("g.0.json", R"({"phases":[]})");
  expect_error(dir / "g", {"g.1.json", "metadata.rank", "file is for rank 1"});

  // The same migratable object on two ranks in one phase: named with both files.
  put("h.0.json", R"({"phases":[{"id":0,"tasks":[)" + task + "]}]}");
  put("h.1.json", R"({"phases":[{"id":0,"tasks":[)" + task + "]}]}");
  expect_error(dir / "h", {"h.1.json", "phase 0", "object id=1", "also listed by", "h.0.json"});
  // Objects marked non-migratable (or objgroup members) may share ids across ranks.
  const std::string fixed = R"({"entity":{"type":"object","id":1,"migratable":false},"node":0,"time":1})";
  put("i.0.json", R"({"phases":[{"id":0,"tasks":[)" + fixed + "]}]}");
  put("i.1.json", R"({"phases":[{"id":0,"tasks":[)" + fixed + "]}]}");
  EXPECT_EQ(read_lb_data(dir / "i").ranks.size(), 2u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessera::lb
