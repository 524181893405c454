// The elastic requests' grammar (context/elastic.hpp) and a shrink's renumbering (RankChange).
#include <tessera/tessera.hpp>

#include <gtest/gtest.h>

namespace tessera {
namespace {

TEST(ElasticRequest, ParsesShrinkAndExpand) {
  const ElasticRequest shrink = parse_elastic_request("  shrink 1,3 ");
  EXPECT_EQ(shrink.kind, ElasticRequest::Kind::shrink);
  EXPECT_EQ(shrink.ranks, (std::vector<int>{1, 3}));
  EXPECT_EQ(shrink.text, "shrink 1,3");
  const ElasticRequest expand = parse_elastic_request("expand 2 h3");
  EXPECT_EQ(expand.kind, ElasticRequest::Kind::expand);
  EXPECT_EQ(expand.processes, 2);
  EXPECT_EQ(expand.host, "h3");
  EXPECT_EQ(parse_elastic_request("expand 4").host, "");
}

TEST(ElasticRequest, RefusesWhatIsNotARequest) {
  for (const char* bad : {"", "shrink", "shrink 1,,2", "shrink -1", "shrink a", "shrink 1 2", "expand 0", "expand x",
                          "expand 2 h3 extra", "resize 2"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_elastic_request(bad), Error);
  }
}

TEST(ElasticFlags, PlanByPhase) {
  ElasticFlags flags;
  flags.plan = "10:shrink 1;25: shrink 2,3 ; 40:expand 2";
  flags.resolve();
  const auto& schedule = flags.schedule();
  ASSERT_EQ(schedule.size(), 3u);
  EXPECT_EQ(schedule.count(10), 1u);
  EXPECT_EQ(schedule.find(25)->second.ranks, (std::vector<int>{2, 3}));
  EXPECT_EQ(schedule.find(40)->second.kind, ElasticRequest::Kind::expand);
  for (const char* bad : {"shrink 1", "x:shrink 1", "-1:shrink 1", "3:shrink", "3:grow 1"}) {
    SCOPED_TRACE(bad);
    ElasticFlags wrong;
    wrong.plan = bad;
    EXPECT_THROW(wrong.resolve(), Error);
  }
}

TEST(RankChange, ShrinkRenumbersInOrder) {
  const std::vector<int> leaving{1, 3};
  const RankChange change = RankChange::shrink(5, leaving);
  EXPECT_EQ(change.old_size, 5);
  EXPECT_EQ(change.new_size, 3);
  EXPECT_EQ(change.new_rank_of, (std::vector<int>{0, -1, 1, -1, 2}));
  EXPECT_EQ(change.old_rank_of, (std::vector<int>{0, 2, 4}));
  EXPECT_TRUE(change.leaves(3));
  EXPECT_FALSE(change.leaves(4));
}

TEST(RankChange, RefusesImpossibleShrinks) {
  const std::vector<int> outside{4}, twice{1, 1}, every{0, 1, 2}, negative{-1};
  EXPECT_THROW(RankChange::shrink(4, outside), std::invalid_argument);
  EXPECT_THROW(RankChange::shrink(4, twice), std::invalid_argument);
  EXPECT_THROW(RankChange::shrink(3, every), std::invalid_argument);
  EXPECT_THROW(RankChange::shrink(4, negative), std::invalid_argument);
}

}  // namespace
}  // namespace tessera
