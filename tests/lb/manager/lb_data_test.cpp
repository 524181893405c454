// LB data from a live collection: what each rank writes (plain or brotli) reads back as the same
// model, the whole set loads with the lb reader, and the flags reject a bad file name.
#include <tessera/lb/lb_data_io.hpp>
#include <tessera/tessera.hpp>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>

#include "../../support/rank_failure_printer.hpp"

namespace {

using namespace tessera::collections;

struct Chatty : Element<Chatty, 2> {
  std::int64_t got = 0;
  void say(std::int64_t times) {
    const Index2D next{index()[0], (index()[1] + 1) % proxy().bounds()[1]};
    for (std::int64_t i = 0; i < times; ++i) proxy()[next].send<&Chatty::hear>(std::int64_t{i});
  }
  void hear(std::int64_t v) { got += v; }
  // What the LB data records as task_footprint_bytes (collections/phase.hpp's optional member).
  double footprint_bytes() const { return 100.0 + static_cast<double>(index()[1]); }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(got);
  }
};

tessera::Runtime* runtime = nullptr;
tessera::lb::LbDataFlags* flags = nullptr;

// One directory for the whole job: named by rank 0's parent (mpirun, or an Open MPI daemon), which
// ranks on other hosts of tests/multihost do not share, so rank 0 tells them.
std::filesystem::path scratch() {
  std::int64_t id = ::getppid();
  MPI_Bcast(&id, 1, MPI_INT64_T, 0, runtime->comm());
  return std::filesystem::temp_directory_path() / ("tessera_lb_data_" + std::to_string(id));
}

bool same_object(const tessera::lb::LbObject& a, const tessera::lb::LbObject& b) {
  return a.id == b.id && a.load == b.load && a.migratable == b.migratable && a.memory == b.memory;
}
bool same_edge(const tessera::lb::LbEdge& a, const tessera::lb::LbEdge& b) {
  return a.from == b.from && a.to == b.to && a.messages == b.messages && a.bytes == b.bytes;
}

// The LB manager builds its strategy input straight from the phase record; it must equal what
// the record's LB data form gives (the lbsim path), footprints and edges included.
void expect_same_input(const PhaseRecord& record) {
  tessera::lb::RankData data;
  data.rank = record.rank;
  data.phases.push_back(tessera::lb::to_lb_phase(record));
  const tessera::lb::StrategyInput via_data = tessera::lb::strategy_input(data, record.phase);
  const tessera::lb::StrategyInput direct = tessera::lb::strategy_input(record);
  EXPECT_EQ(direct.rank, via_data.rank);
  ASSERT_EQ(direct.objects.size(), via_data.objects.size());
  for (std::size_t i = 0; i < direct.objects.size(); ++i)
    EXPECT_TRUE(same_object(direct.objects[i], via_data.objects[i])) << "object " << i;
  ASSERT_EQ(direct.edges.size(), via_data.edges.size());
  EXPECT_FALSE(direct.edges.empty());
  for (std::size_t i = 0; i < direct.edges.size(); ++i)
    EXPECT_TRUE(same_edge(direct.edges[i], via_data.edges[i])) << "edge " << i;
  EXPECT_EQ(direct.working_bytes, via_data.working_bytes);
  EXPECT_EQ(direct.rank_alpha, via_data.rank_alpha);
  EXPECT_EQ(direct.memory_limit, via_data.memory_limit);
  EXPECT_EQ(direct.objects.front().memory.footprint_bytes >= 100.0, true);
}

void record_and_check(bool compress) {
  auto& rt = *runtime;
  flags->dir = scratch().string();
  flags->file = compress ? "packed.%p.json" : "plain.%p.json";
  flags->compress = compress;
  // A load clock that advances 1 s per reading: phase k (from 0) then lasts k + 1 s, as no
  // phase_done() resets the mark here.
  double clock = 0.0;
  tessera::lb::LbDataOutput output(*flags, rt.rank(), &rt.node_map(), [&clock] { return clock += 1.0; });
  auto chatty = make_collection<Chatty>(rt, {3, 2 * static_cast<std::int64_t>(rt.size())});
  auto& phases = PhaseManager::of(rt);
  phases.end_phase();
  for (int phase = 0; phase < 3; ++phase) {
    if (phase == 1) phases.set_subphase(1);
    // Rank 0 leaves end_phase's barrier first and its broadcast can reach a rank still inside it
    // (across hosts, about every other run): every rank sets its subphase before the work goes.
    rt.collectives().barrier();
    if (rt.rank() == 0) chatty.broadcast_from_this_rank<&Chatty::say>(std::int64_t{phase + 1});
    // Which elements leave is decided before the phase closes: once a rank is past end_phase's
    // barrier it starts moving elements, and a slower rank still in that barrier would receive
    // them and, listing its elements afterwards, send them on again.
    const auto leaving = chatty.manager().local_elements();
    const PhaseRecord record = phases.end_phase();
    expect_same_input(record);
    output.add(record);
    // After the second phase every element moves one rank on: LB data follows them. The move
    // gets a phase of its own, not written out, as the LB manager's migrations do: an element is
    // recorded on every rank it ran on during a phase, so a move inside phase 3 would put the
    // elements that left into rank r's phase-3 record too.
    if (phase == 1) {
      for (std::uint64_t e : leaving) phases.migrate(ElementKey{chatty.id(), e}, (rt.rank() + 1) % rt.size());
      phases.end_phase();
    }
    rt.drain();
  }
  output.write();
  rt.collectives().barrier();
  const auto file = flags->stem().string() + "." + std::to_string(rt.rank()) + ".json";
  const tessera::lb::RankData back = tessera::lb::read_rank_file(file, rt.rank());
  EXPECT_EQ(back, output.data());
  EXPECT_EQ(back.metadata_extra, R"({"phase_time_s":[1.0,2.0,3.0]})");
  ASSERT_EQ(back.phases.size(), 3u);
  // 6 elements per rank plus the rank's own entity; edges: each element hears from its left
  // neighbour (phase+1 messages of 8 bytes) and from rank 0's broadcast (not an edge).
  for (std::size_t i = 0; i < back.phases.size(); ++i) {
    const auto& phase = back.phases[i];
    EXPECT_EQ(phase.tasks.size(), 7u);
    std::int64_t messages = 0;
    for (const auto& edge : phase.communications) messages += edge.messages;
    EXPECT_EQ(messages, 6 * static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(phase.tasks[0].subphases.size(), i == 1 ? 2u : 0u);
    for (const auto& task : phase.tasks) {
      if (task.entity.migratable == false) {
        EXPECT_EQ(task.user_defined, "");  // the rank's own time reports no size
        continue;
      }
      ASSERT_EQ(task.entity.index.size(), 2u);
      EXPECT_EQ(task.user_defined,
                fmt::format("{{\"task_footprint_bytes\":{:.1f}}}", 100.0 + static_cast<double>(task.entity.index[1])));
    }
  }
  // metadata.shared_node: the runtime's node map (one node on one host; tests/multihost runs this on 2 hosts).
  ASSERT_TRUE(back.shared_node.has_value());
  EXPECT_EQ(back.shared_node->id, rt.node());
  EXPECT_EQ(back.shared_node->size, rt.node_map().node_size(rt.node()));
  EXPECT_EQ(back.shared_node->rank, rt.node_map().rank_in_node(rt.rank()));
  EXPECT_EQ(back.shared_node->num_nodes, rt.num_nodes());
  const tessera::lb::LbData all = tessera::lb::read_lb_data(flags->stem());
  EXPECT_EQ(all.ranks.size(), static_cast<std::size_t>(rt.size()));
  EXPECT_EQ(all.node_map().node, std::vector<std::int32_t>(rt.node_map().nodes().begin(), rt.node_map().nodes().end()));
  EXPECT_EQ(all.ranks[static_cast<std::size_t>(rt.rank())], output.data());
  rt.collectives().barrier();
  chatty.destroy();
}

TEST(LbData, PlainFilesReadBackIdentically) { record_and_check(false); }
TEST(LbData, BrotliFilesReadBackIdentically) { record_and_check(true); }

TEST(LbData, FileNameMustCarryTheRank) {
  tessera::lb::LbDataFlags bad;
  bad.file = "data.json";
  try {
    bad.validate();
    FAIL() << "data.json was accepted";
  } catch (const tessera::Error& e) {
    EXPECT_STREQ(e.what(),
                 "--tessera_lb_data_file=data.json: expected a file name of the form STEM.%p.json (%p is the "
                 "rank), e.g. data.%p.json");
  }
  bad.file = "data.%p.json";
  EXPECT_NO_THROW(bad.validate());
  EXPECT_EQ(bad.stem(), std::filesystem::path("lb_data") / "data");
}

}  // namespace

int main(int argc, char** argv) {
  tessera::collections::CollectionFlags collection_flags;
  tessera::lb::LbDataFlags lb_flags;
  tessera::RuntimeOptions options;
  options.flag_groups = {&collection_flags, &lb_flags};
  tessera::Runtime rt(argc, argv, options);
  PhaseManager::install(rt, LoadClock::cpu);
  runtime = &rt;
  flags = &lb_flags;
  ::testing::InitGoogleTest(&argc, argv);
  tessera::testing::quiet_other_ranks(rt.rank());
  const int failed = RUN_ALL_TESTS();
  const int any = rt.collectives().allreduce(failed, tessera::op::max{});
  const std::filesystem::path dir = scratch();  // collective
  if (rt.rank() == 0) std::filesystem::remove_all(dir);
  return any;
}
