#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/report.hpp"

namespace tessera::lb {

namespace detail {
// Chart.js 3 (Debian's libjs-chart.js) and report.js, inlined at build time (lb/CMakeLists.txt).
extern const char kChartJs[];
extern const char kReportJs[];
}  // namespace detail

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A chart's canvas in a box of the given height (Chart.js fills its container).
std::string canvas(const std::string& id, int height_px) {
  return fmt::format("<div class=\"chart\" style=\"height:{}px\"><canvas id=\"{}\" role=\"img\"></canvas></div>\n",
                     height_px, id);
}

// Inside <script>, "</" would end the element early (the data's strings, such as titles).
std::string script_safe(std::string text) {
  for (std::size_t at = 0; (at = text.find("</", at)) != std::string::npos; at += 3) text.replace(at, 2, "<\\/");
  return text;
}

}  // namespace

std::string render_html(const ReportData& r) {
  // Everything the charts draw, read by report.js.
  const auto groups = [](const std::vector<ReportData::Group>& gs) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& g : gs) out.push_back({g.first, g.last});
    return out;
  };
  const nlohmann::json data = {{"phases", r.phases},       {"chosen", r.chosen},
                               {"rows", groups(r.rows)},   {"columns", groups(r.columns)},
                               {"heat", r.heat},           {"bars", r.bars},
                               {"imbalance", r.imbalance}, {"balanced", r.balanced_imbalance},
                               {"balanced_label", r.balanced_label},
                               {"migrations", r.migrations},
                               {"bin_edges", r.bin_edges}, {"bin_counts", r.bin_counts}};
  std::int64_t total_migrations = 0;
  for (auto m : r.migrations) total_migrations += m;

  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title><style>"
      "body{{font-family:sans-serif;margin:24px;color:#222;max-width:1000px}} h2{{margin-top:28px;font-size:18px}}"
      " .chart{{position:relative;width:100%}} table{{border-collapse:collapse}}"
      " td,th{{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:right}} .note{{color:#555;font-size:13px}}"
      " #heat-scale{{height:12px;width:300px;border:1px solid #ccc}} .scale-ticks{{display:flex;"
      "justify-content:space-between;width:302px;font-size:11px;color:#555}}"
      " .zoom{{position:sticky;top:0;background:#fff;padding:6px 0;border-bottom:1px solid #ddd;font-size:13px}}"
      " .zoom input{{width:80px}}"
      "</style></head><body>\n<h1>{0}</h1>\n<p class=\"note\">{1} ranks, {2} phases, {3} migrations in all. Loads "
      "in seconds; hover a chart for its values.</p>\n",
      escape(r.title), r.ranks, r.phases.size(), total_migrations);
  if (!r.rank_set_note.empty()) html += "<p class=\"note\" id=\"rank-set\">" + escape(r.rank_set_note) + "</p>\n";
  html += "<div class=\"zoom\"><label>Phases from <input type=\"number\" id=\"zoom-from\"></label> <label>to "
          "<input type=\"number\" id=\"zoom-to\"></label> <button id=\"zoom-all\">all phases</button> "
          "<span class=\"note\">(the charts over phases)</span></div>\n";
  html += fmt::format("<h2>Rank load per phase</h2><p class=\"note\">{} row(s) x {} column(s){}; each cell's colour "
                      "is its load over the busiest cell of its phase.</p>\n",
                      r.rows.size(), r.columns.size(),
                      r.rows.size() < static_cast<std::size_t>(r.ranks) || r.columns.size() < r.phases.size()
                          ? ", each cell the busiest rank of its group of ranks and phases"
                          : "");
  html += canvas("heat", static_cast<int>(std::clamp<std::size_t>(r.rows.size() * 14, 240, 640)) + 60);
  html += "<p class=\"note\">Colour scale: load over the phase's busiest rank</p><div id=\"heat-scale\"></div>"
          "<div class=\"scale-ticks\"><span>0</span><span>0.25</span><span>0.5</span><span>0.75</span><span>1</span>"
          "</div>\n";
  html += "<h2>Rank loads of one phase</h2><p class=\"note\"><label>Phase <select id=\"phase\"></select></label> I = "
          "<span id=\"phase-imbalance\"></span></p>\n" + canvas("rank-bars", 260);
  html += fmt::format("<h2>Imbalance I = max/avg - 1 per phase</h2><p class=\"note\">measured{}</p>\n",
                      r.balanced_imbalance.empty() ? "" : "; and after " + escape(r.balanced_label) + " on the same loads");
  html += canvas("imbalance", 280);
  html += "<h2>Migrations per phase</h2><p class=\"note\">objects recorded on another rank than in the phase "
          "before</p>\n" + canvas("migrations", 240);
  html += fmt::format("<h2>Object loads, phase {}</h2><p class=\"note\">log-spaced bins; {} object(s) with load 0 "
                      "not shown</p>\n",
                      r.phases[r.chosen], r.zero_load_objects);
  html += canvas("objects", 240);
  html += fmt::format("<h2>Heaviest communication edges, phase {}</h2>\n", r.phases[r.chosen]);
  if (r.edges.empty()) {
    html += "<p class=\"note\">The data records no communication for this phase.</p>\n";
  } else {
    html += "<table id=\"edges\"><tr><th>from</th><th>to</th><th>bytes</th><th>messages</th><th>off-rank</th></tr>";
    for (const auto& e : r.edges)
      html += fmt::format("<tr><td>{}</td><td>{}</td><td>{:.6g}</td><td>{}</td><td>{}</td></tr>", escape(e.from),
                          escape(e.to), e.bytes, e.messages, e.off_rank ? "yes" : "no");
    html += "</table>\n";
  }
  if (!r.advice.empty()) {
    html += fmt::format("<h2>Advice</h2><p class=\"note\">The balancer advisor (lbsim advise): each option re-played "
                        "on these phases, ranked by predicted time to solution; gain = predicted time of no LB / "
                        "predicted time. {}</p>\n",
                        escape(r.advice_note));
    html += "<table id=\"advice\"><tr><th>rank</th><th>option</th><th>predicted s</th><th>gain</th><th>migrations</th>"
            "<th>LB s</th><th>flags</th></tr>";
    for (const auto& a : r.advice) {
      html += fmt::format("<tr><td>{}</td><td style=\"text-align:left\">{}</td><td>{:.4f}</td><td>{:.3f}</td><td>{}</td>"
                          "<td>{:.4f}</td><td style=\"text-align:left\"><code>{}</code></td></tr>",
                          a.rank, escape(a.option), a.predicted_s, a.gain, a.migrations, a.lb_s, escape(a.flags));
    }
    html += "</table>\n";
  }
  if (!r.rescales.empty()) {
    html += "<h2>Rescales</h2><p class=\"note\">The run's changes of its rank set, each at the end of its phase, "
            "with its stages in milliseconds (the slowest rank's); the first phase after is on the new rank set.</p>\n"
            "<table id=\"rescales\"><tr><th>phase</th><th>change</th><th>decision</th><th>evacuation</th>"
            "<th>migrations</th><th>spawn</th><th>quiescence</th><th>cut or merge</th><th>first phase after</th></tr>";
    for (const auto& x : r.rescales) {
      html += fmt::format("<tr><td>{}</td><td style=\"text-align:left\">{}</td><td>{:.3f}</td><td>{:.3f}</td><td>{}</td>"
                          "<td>{:.3f}</td><td>{:.3f}</td><td>{:.3f}</td><td>{:.3f}</td></tr>",
                          x.phase, escape(x.change), 1e3 * x.decision_s, 1e3 * x.evacuation_s, x.migrations,
                          1e3 * x.spawn_s, 1e3 * x.quiescence_s, 1e3 * x.cut_s, 1e3 * x.first_phase_s);
    }
    html += "</table>\n";
  }
  html += "<pre id=\"chart-check\" hidden></pre>\n";
  html += "<script type=\"application/json\" id=\"report-data\">" + script_safe(data.dump()) + "</script>\n";
  // lb/CMakeLists.txt checked at build time that neither script holds "</script".
  html += std::string("<script>") + detail::kChartJs + "</script>\n<script>" + detail::kReportJs +
          "</script>\n</body></html>\n";
  return html;
}

void write_report(const LbData& data, const ReportOptions& options, const std::filesystem::path& out) {
  const std::string html = render_html(summarize(data, options));
  std::ofstream file(out, std::ios::binary);
  if (!(file << html) || !file.flush())
    throw DataError(out.string() + ": cannot write the LB report (expected a writable file)");
}

}  // namespace tessera::lb
