// The offline LB report (tessera/lb/report.hpp): exact figures on a hand-made data set, the
// aggregation of many ranks, and the HTML's shape (one heat-map cell per rank group and phase).
#include "tessera/lb/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <numeric>

#include "tessera/lb/advisor.hpp"
#include "tessera/lb/lb_data_io.hpp"

#include <fmt/format.h>
#include <algorithm>

namespace tessera::lb {
namespace {

// The data the report's charts draw (its <script id="report-data">).
nlohmann::json report_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const std::size_t begin = html.find(open) + open.size();
  return nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
}

// Cells of the rank-by-phase map: rows x columns of its data.
std::size_t map_cells(const std::string& html) {
  const nlohmann::json data = report_data(html);
  return data.at("heat").size() * data.at("heat").at(0).size();
}

Task task(std::uint64_t id, Rank rank, double time) {
  Task t;
  t.entity.id = ObjectId::packed(id);
  t.entity.migratable = true;
  t.node = rank;
  t.time = time;
  return t;
}

// Three ranks, three phases; object 2 moves 0 -> 1 -> 2. Rank loads [4,1,1], [3,2,1], [2,1,3].
LbData small_data() {
  LbData data;
  data.ranks.resize(3);
  const std::vector<std::vector<std::vector<std::pair<std::uint64_t, double>>>> where = {
      {{{1, 3}, {2, 1}}, {{3, 1}}, {{4, 1}}},
      {{{1, 3}}, {{3, 1}, {2, 1}}, {{4, 1}}},
      {{{1, 2}}, {{3, 1}}, {{4, 1}, {2, 2}}}};
  for (Rank r = 0; r < 3; ++r) {
    data.ranks[r].rank = r;
    for (PhaseId p = 0; p < 3; ++p) {
      Phase phase;
      phase.id = p;
      for (auto [id, time] : where[p][r]) phase.tasks.push_back(task(id, r, time));
      data.ranks[r].phases.push_back(phase);
    }
  }
  Edge far;
  far.from.id = ObjectId::packed(1);
  far.to.id = ObjectId::packed(3);
  far.messages = 2;
  far.bytes = 100;
  Edge near = far;
  near.to.id = ObjectId::packed(2);
  near.messages = 1;
  near.bytes = 50;
  data.ranks[0].phases[0].communications = {near, far};
  return data;
}

TEST(LbReport, SummaryFiguresAreExact) {
  const ReportData r = summarize(small_data(), ReportOptions{});
  EXPECT_EQ(r.ranks, 3);
  EXPECT_EQ(r.phases, (std::vector<PhaseId>{0, 1, 2}));
  ASSERT_EQ(r.imbalance.size(), 3u);
  EXPECT_DOUBLE_EQ(r.imbalance[0], 1.0);
  EXPECT_DOUBLE_EQ(r.imbalance[1], 0.5);
  EXPECT_DOUBLE_EQ(r.imbalance[2], 0.5);
  EXPECT_EQ(r.migrations, (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_EQ(r.chosen, 0u);  // the most imbalanced phase
  EXPECT_EQ(r.heat, (std::vector<std::vector<double>>{{4, 3, 2}, {1, 2, 1}, {1, 1, 3}}));
  EXPECT_EQ(r.bars[1], (std::vector<double>{3, 2, 1}));
  ASSERT_EQ(r.edges.size(), 2u);
  EXPECT_EQ(r.edges[0].from, "id=1");
  EXPECT_EQ(r.edges[0].to, "id=3");
  EXPECT_EQ(r.edges[0].bytes, 100.0);
  EXPECT_EQ(r.edges[0].messages, 2);
  EXPECT_TRUE(r.edges[0].off_rank);
  EXPECT_EQ(r.edges[1].to, "id=2");
  EXPECT_FALSE(r.edges[1].off_rank);
  EXPECT_EQ(std::accumulate(r.bin_counts.begin(), r.bin_counts.end(), std::int64_t{0}), 4);
  EXPECT_EQ(r.zero_load_objects, 0);
}

TEST(LbReport, ManyRanksAggregateIntoGroupsOfTheBusiest) {
  LbData data;
  data.ranks.resize(1000);
  for (Rank r = 0; r < 1000; ++r) {
    data.ranks[r].rank = r;
    for (PhaseId p = 0; p < 2; ++p) {
      Phase phase;
      phase.id = p;
      phase.tasks.push_back(task(static_cast<std::uint64_t>(r), r, r == 537 && p == 1 ? 50.0 : 1.0));
      data.ranks[r].phases.push_back(phase);
    }
  }
  ReportOptions options;
  options.max_rows = 100;
  const ReportData r = summarize(data, options);
  ASSERT_EQ(r.rows.size(), 100u);
  EXPECT_EQ(r.rows[53].first, 530);
  EXPECT_EQ(r.rows[53].last, 539);
  EXPECT_EQ(r.heat[53][1], 50.0);
  EXPECT_EQ(r.heat[53][0], 1.0);
  EXPECT_EQ(r.heat[54][1], 1.0);
  EXPECT_EQ(r.chosen, 1u);
  EXPECT_EQ(map_cells(render_html(r)), 200u);
}

TEST(LbReport, HtmlCarriesOneMapCellPerRankAndPhaseAndChartJsInline) {
  const std::string html = render_html(summarize(small_data(), ReportOptions{}));
  EXPECT_EQ(map_cells(html), 9u);
  const nlohmann::json data = report_data(html);
  EXPECT_EQ(data.at("bars").size(), 3u);
  EXPECT_EQ(data.at("chosen"), 0);
  // One self-contained file: Chart.js and the report's script inline, nothing loaded from elsewhere.
  EXPECT_NE(html.find("Chart.js v3"), std::string::npos);
  EXPECT_NE(html.find("chart-check"), std::string::npos);
  EXPECT_EQ(html.find("src=\""), std::string::npos);
  EXPECT_EQ(html.find("href=\""), std::string::npos);
}

TEST(LbReport, AdviceSectionListsTheAdvisorsBestAndNoLb) {
  ReportOptions options;
  CostModel cost;
  cost.strategy_s = 0.0;
  cost.latency_s = 0.0;
  add_advice(small_data(), 3, cost, options);
  ASSERT_GE(options.advice.size(), 3u);
  const auto none = std::find_if(options.advice.begin(), options.advice.end(), [](const ReportAdvice& a) { return a.flags.empty(); });
  ASSERT_NE(none, options.advice.end());
  // No LB keeps every object where it was first recorded: object 2 stays on rank 0, which then
  // carries 3 + 1, 3 + 1 and 2 + 2 s.
  EXPECT_EQ(none->predicted_s, 12.0);
  EXPECT_EQ(none->gain, 1.0);
  EXPECT_EQ(options.advice.size(), none->rank <= 3 ? 3u : 4u);
  EXPECT_EQ(options.advice.front().rank, 1u);
  EXPECT_LE(options.advice.front().predicted_s, 12.0);
  const std::string html = render_html(summarize(small_data(), options));
  EXPECT_NE(html.find("<h2>Advice</h2>"), std::string::npos);
  EXPECT_NE(html.find(fmt::format("<tr><td>{}</td><td style=\"text-align:left\">no LB</td><td>12.0000</td><td>1.000</td>"
                                  "<td>0</td><td>0.0000</td>",
                                  none->rank)),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("strategy time 0 s per run"), std::string::npos);
  EXPECT_EQ(render_html(summarize(small_data(), ReportOptions{})).find("<h2>Advice</h2>"), std::string::npos);
}

TEST(LbReport, AMissingPhaseOrEmptyDataIsAnError) {
  ReportOptions options;
  options.phase = 7;
  EXPECT_THROW(summarize(small_data(), options), DataError);
  EXPECT_THROW(summarize(LbData{}, ReportOptions{}), DataError);
}

}  // namespace
}  // namespace tessera::lb
