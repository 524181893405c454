#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/report.hpp"
#include "tessera/lb/statistics.hpp"

namespace tessera::lb {

namespace {

// Splits [0, n) into at most `limit` groups of consecutive items, as evenly as possible.
std::vector<ReportData::Group> groups_of(std::size_t n, std::size_t limit) {
  std::vector<ReportData::Group> out;
  const std::size_t count = std::max<std::size_t>(1, std::min(n, std::max<std::size_t>(limit, 1)));
  for (std::size_t g = 0; g < count && n > 0; ++g) {
    const std::size_t first = g * n / count;
    const std::size_t last = (g + 1) * n / count - 1;
    out.push_back({static_cast<Rank>(first), static_cast<Rank>(last)});
  }
  return out;
}

// Where each object ran in one phase (the rank whose file recorded it).
std::unordered_map<ObjectId, Rank, ObjectIdHash> placement(const LbData& data, PhaseId phase) {
  std::unordered_map<ObjectId, Rank, ObjectIdHash> where;
  for (const RankData& rank : data.ranks)
    if (const Phase* p = rank.find_phase(phase))
      for (const Task& t : p->tasks) where[t.entity.id] = rank.rank;
  return where;
}

void histogram(const LbData& data, PhaseId phase, ReportData& out) {
  std::vector<double> loads;
  for (const RankData& rank : data.ranks)
    if (const Phase* p = rank.find_phase(phase))
      for (const Task& t : p->tasks) loads.push_back(t.time);
  std::vector<double> positive;
  for (double l : loads) (l > 0 ? positive.push_back(l) : void(++out.zero_load_objects));
  if (positive.empty()) return;
  const auto [lo, hi] = std::minmax_element(positive.begin(), positive.end());
  constexpr int kBins = 20;
  const double a = std::log10(*lo);
  const double b = *hi > *lo ? std::log10(*hi) : a + 1.0;
  for (int i = 0; i <= kBins; ++i) out.bin_edges.push_back(std::pow(10.0, a + (b - a) * i / kBins));
  out.bin_counts.assign(kBins, 0);
  for (double l : positive) {
    int bin = static_cast<int>((std::log10(l) - a) / (b - a) * kBins);
    out.bin_counts[static_cast<std::size_t>(std::clamp(bin, 0, kBins - 1))] += 1;
  }
}

void heavy_edges(const LbData& data, PhaseId phase, std::size_t top, ReportData& out) {
  const auto where = placement(data, phase);
  std::map<std::pair<ObjectId, ObjectId>, ReportData::HeavyEdge> merged;
  for (const RankData& rank : data.ranks) {
    const Phase* p = rank.find_phase(phase);
    if (p == nullptr) continue;
    for (const Edge& e : p->communications) {
      ReportData::HeavyEdge& h = merged[{e.from.id, e.to.id}];
      h.from = to_string(e.from.id);
      h.to = to_string(e.to.id);
      h.bytes += e.bytes;
      h.messages += e.messages;
      const auto f = where.find(e.from.id);
      const auto t = where.find(e.to.id);
      h.off_rank = f == where.end() || t == where.end() || f->second != t->second;
    }
  }
  for (auto& [key, edge] : merged) out.edges.push_back(edge);
  std::stable_sort(out.edges.begin(), out.edges.end(),
                   [](const auto& x, const auto& y) { return x.bytes > y.bytes; });
  if (out.edges.size() > top) out.edges.resize(top);
}

}  // namespace

ReportData summarize(const LbData& data, const ReportOptions& options) {
  ReportData out;
  out.title = options.title;
  out.ranks = static_cast<Rank>(data.ranks.size());
  out.phases = data.phase_ids();
  if (out.phases.empty() || data.ranks.empty()) throw DataError("LB report: the data holds no phase");
  const std::size_t n = out.phases.size();
  out.rows = groups_of(data.ranks.size(), options.max_rows);
  out.columns = groups_of(n, options.max_columns);

  std::vector<std::vector<double>> loads(n);  // [phase][rank]
  for (std::size_t p = 0; p < n; ++p) {
    loads[p] = data.rank_loads(out.phases[p]);
    out.imbalance.push_back(statistics(loads[p]).imbalance());
    std::vector<double> bar;
    for (const auto& g : out.rows)
      bar.push_back(*std::max_element(loads[p].begin() + g.first, loads[p].begin() + g.last + 1));
    out.bars.push_back(std::move(bar));
  }
  out.heat.assign(out.rows.size(), std::vector<double>(out.columns.size(), 0.0));
  for (std::size_t c = 0; c < out.columns.size(); ++c)
    for (auto p = static_cast<std::size_t>(out.columns[c].first); p <= static_cast<std::size_t>(out.columns[c].last); ++p)
      for (std::size_t r = 0; r < out.rows.size(); ++r) out.heat[r][c] = std::max(out.heat[r][c], out.bars[p][r]);

  out.migrations.assign(n, 0);
  auto before = placement(data, out.phases[0]);
  for (std::size_t p = 1; p < n; ++p) {
    auto now = placement(data, out.phases[p]);
    for (const auto& [id, rank] : now) {
      const auto it = before.find(id);
      if (it != before.end() && it->second != rank) ++out.migrations[p];
    }
    before = std::move(now);
  }

  if (options.phase) {
    const auto it = std::find(out.phases.begin(), out.phases.end(), *options.phase);
    if (it == out.phases.end()) throw DataError("LB report: the data has no phase " + std::to_string(*options.phase));
    out.chosen = static_cast<std::size_t>(it - out.phases.begin());
  } else {
    out.chosen = static_cast<std::size_t>(std::max_element(out.imbalance.begin(), out.imbalance.end()) -
                                          out.imbalance.begin());
  }
  if (!options.balanced_imbalance.empty() && options.balanced_imbalance.size() != n)
    throw DataError("LB report: balanced imbalance given for " + std::to_string(options.balanced_imbalance.size()) +
                    " phases, the data has " + std::to_string(n));
  out.balanced_imbalance = options.balanced_imbalance;
  out.balanced_label = options.balanced_label;
  out.advice = options.advice;
  out.advice_note = options.advice_note;
  out.rescales = options.rescales;
  out.rank_set_note = options.rank_set_note;
  histogram(data, out.phases[out.chosen], out);
  heavy_edges(data, out.phases[out.chosen], options.top_edges, out);
  return out;
}

}  // namespace tessera::lb
