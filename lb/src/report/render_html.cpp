#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/report.hpp"

namespace tessera::lb {

namespace {

constexpr double kWidth = 900.0;

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

// White through blue to dark red as `t` goes from 0 to 1.
std::string color(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const auto mix = [](double a, double b, double u) { return static_cast<int>(a + (b - a) * u); };
  if (t < 0.5) {
    const double u = t / 0.5;
    return fmt::format("rgb({},{},{})", mix(247, 66, u), mix(251, 146, u), mix(255, 198, u));
  }
  const double u = (t - 0.5) / 0.5;
  return fmt::format("rgb({},{},{})", mix(66, 165, u), mix(146, 15, u), mix(198, 21, u));
}

std::string label(const ReportData::Group& g, const char* what) {
  return g.first == g.last ? fmt::format("{} {}", what, g.first) : fmt::format("{}s {}-{}", what, g.first, g.last);
}

// Each cell's color is its load over the busiest cell of its column, so a phase's imbalance shows
// whatever the phase's length (a long first phase would otherwise wash out every other column).
std::string heat_map(const ReportData& r) {
  std::vector<double> top(r.columns.size(), 0.0);
  for (const auto& row : r.heat)
    for (std::size_t c = 0; c < row.size(); ++c) top[c] = std::max(top[c], row[c]);
  const double cw = kWidth / static_cast<double>(r.columns.size());
  const double ch = std::clamp(600.0 / static_cast<double>(r.rows.size()), 2.0, 14.0);
  std::string svg = fmt::format("<svg id=\"heat\" width=\"{}\" height=\"{}\" role=\"img\">", kWidth + 2,
                                ch * static_cast<double>(r.rows.size()) + 2);
  for (std::size_t row = 0; row < r.rows.size(); ++row) {
    for (std::size_t col = 0; col < r.columns.size(); ++col) {
      const ReportData::Group& pg = r.columns[col];
      const std::string phases = pg.first == pg.last
                                     ? fmt::format("phase {}", r.phases[static_cast<std::size_t>(pg.first)])
                                     : fmt::format("phases {}-{}", r.phases[static_cast<std::size_t>(pg.first)],
                                                   r.phases[static_cast<std::size_t>(pg.last)]);
      svg += fmt::format(
          "<rect class=\"cell\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\"><title>{}, {}: "
          "{:.6g} s</title></rect>",
          1 + cw * static_cast<double>(col), 1 + ch * static_cast<double>(row), cw, ch,
          color(top[col] > 0 ? r.heat[row][col] / top[col] : 0.0), label(r.rows[row], "rank"), phases, r.heat[row][col]);
    }
  }
  return svg + "</svg>";
}

// A line chart of one or two series over the phases.
std::string lines(const std::vector<double>& a, const std::vector<double>& b, const std::string& id) {
  constexpr double h = 220.0;
  double top = 0.0;
  for (double v : a) top = std::max(top, v);
  for (double v : b) top = std::max(top, v);
  if (top <= 0) top = 1.0;
  const auto points = [&](const std::vector<double>& v) {
    std::string out;
    const double step = v.size() > 1 ? kWidth / static_cast<double>(v.size() - 1) : 0.0;
    for (std::size_t i = 0; i < v.size(); ++i)
      out += fmt::format("{:.2f},{:.2f} ", 1 + step * static_cast<double>(i), 1 + h - h * v[i] / top);
    return out;
  };
  std::string svg = fmt::format("<svg id=\"{}\" width=\"{}\" height=\"{}\"><text x=\"4\" y=\"12\" class=\"axis\">{:.4g}</text>",
                                id, kWidth + 2, h + 2, top);
  svg += fmt::format("<polyline class=\"measured\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1.5\" points=\"{}\"/>",
                     points(a));
  if (!b.empty())
    svg += fmt::format("<polyline class=\"balanced\" fill=\"none\" stroke=\"#2471a3\" stroke-width=\"1.5\" points=\"{}\"/>",
                       points(b));
  return svg + "</svg>";
}

// Vertical bars with a title each.
template <class T>
std::string bar_chart(const std::vector<T>& values, const std::vector<std::string>& titles, const std::string& id) {
  constexpr double h = 160.0;
  double top = 0.0;
  for (const T& v : values) top = std::max(top, static_cast<double>(v));
  if (top <= 0) top = 1.0;
  const double w = kWidth / static_cast<double>(std::max<std::size_t>(values.size(), 1));
  std::string svg = fmt::format("<svg id=\"{}\" width=\"{}\" height=\"{}\"><text x=\"4\" y=\"12\" class=\"axis\">{:.4g}</text>",
                                id, kWidth + 2, h + 2, top);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double bh = h * static_cast<double>(values[i]) / top;
    svg += fmt::format("<rect class=\"bar\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\"><title>{}</title></rect>",
                       1 + w * static_cast<double>(i), 1 + h - bh, std::max(w - 1, 0.5), bh, escape(titles[i]));
  }
  return svg + "</svg>";
}

// Rebuilds the rank-load bars of the phase the menu names, from the data embedded below.
constexpr const char* kScript = R"JS(
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const menu = document.getElementById('phase');
  const svg = document.getElementById('rank-bars');
  const ns = 'http://www.w3.org/2000/svg';
  function draw(index) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const values = data.bars[index];
    const top = Math.max(...values, 1e-300);
    const width = 900 / values.length, height = 160;
    values.forEach(function (v, i) {
      const rect = document.createElementNS(ns, 'rect');
      const h = height * v / top;
      rect.setAttribute('class', 'bar');
      rect.setAttribute('x', 1 + width * i);
      rect.setAttribute('y', 1 + height - h);
      rect.setAttribute('width', Math.max(width - 1, 0.5));
      rect.setAttribute('height', h);
      const title = document.createElementNS(ns, 'title');
      const g = data.rows[i];
      title.textContent = (g[0] === g[1] ? 'rank ' + g[0] : 'ranks ' + g[0] + '-' + g[1]) + ': ' + v.toPrecision(6) + ' s';
      rect.appendChild(title);
      svg.appendChild(rect);
    });
    document.getElementById('phase-imbalance').textContent = data.imbalance[index].toFixed(4);
  }
  data.phases.forEach(function (p, i) {
    const option = document.createElement('option');
    option.value = i;
    option.textContent = 'phase ' + p;
    if (i === data.chosen) option.selected = true;
    menu.appendChild(option);
  });
  menu.addEventListener('change', function () { draw(Number(menu.value)); });
  draw(data.chosen);
})();
)JS";

}  // namespace

std::string render_html(const ReportData& r) {
  nlohmann::json data = {{"phases", r.phases}, {"bars", r.bars}, {"imbalance", r.imbalance}, {"chosen", r.chosen}};
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& g : r.rows) rows.push_back({g.first, g.last});
  data["rows"] = rows;
  std::string json = data.dump();
  // Inside <script>, "</" would end the element early.
  for (std::size_t at = 0; (at = json.find("</", at)) != std::string::npos; at += 3) json.replace(at, 2, "<\\/");

  std::vector<std::string> migration_titles;
  for (std::size_t p = 0; p < r.phases.size(); ++p)
    migration_titles.push_back(fmt::format("phase {}: {} migrations", r.phases[p], r.migrations[p]));
  std::vector<std::string> bin_titles;
  for (std::size_t b = 0; b + 1 < r.bin_edges.size(); ++b)
    bin_titles.push_back(fmt::format("{:.3g}-{:.3g} s: {} objects", r.bin_edges[b], r.bin_edges[b + 1], r.bin_counts[b]));
  std::int64_t total_migrations = 0;
  for (auto m : r.migrations) total_migrations += m;

  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title><style>"
      "body{{font-family:sans-serif;margin:24px;color:#222}} h2{{margin-top:28px;font-size:18px}}"
      " .axis{{font-size:10px;fill:#555}} .bar{{fill:#4a7fb5}} table{{border-collapse:collapse}}"
      " td,th{{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:right}} .note{{color:#555;font-size:13px}}"
      "</style></head><body>\n<h1>{0}</h1>\n<p class=\"note\">{1} ranks, {2} phases, {3} migrations in all. Loads in "
      "seconds; hover a shape for its value.</p>\n",
      escape(r.title), r.ranks, r.phases.size(), total_migrations);
  html += fmt::format("<h2>Rank load per phase</h2><p class=\"note\">{} row(s) x {} column(s){}; in each column, "
                      "darker is busier (red: the phase's busiest).</p>\n",
                      r.rows.size(), r.columns.size(),
                      r.rows.size() < static_cast<std::size_t>(r.ranks) || r.columns.size() < r.phases.size()
                          ? ", each cell the busiest rank of its group of ranks and phases"
                          : "");
  html += heat_map(r) + "\n";
  html += "<h2>Rank loads of one phase</h2><p class=\"note\"><label>Phase <select id=\"phase\"></select></label> I = "
          "<span id=\"phase-imbalance\"></span></p>\n<svg id=\"rank-bars\" width=\"902\" height=\"162\"></svg>\n";
  html += fmt::format("<h2>Imbalance I = max/avg - 1 per phase</h2><p class=\"note\">red: measured{}</p>\n",
                      r.balanced_imbalance.empty() ? "" : "; blue: after " + escape(r.balanced_label));
  html += lines(r.imbalance, r.balanced_imbalance, "imbalance") + "\n";
  html += "<h2>Migrations per phase</h2><p class=\"note\">objects recorded on another rank than in the phase "
          "before</p>\n";
  html += bar_chart(r.migrations, migration_titles, "migrations") + "\n";
  html += fmt::format("<h2>Object loads, phase {}</h2><p class=\"note\">log-spaced bins; {} object(s) with load 0 "
                      "not shown</p>\n",
                      r.phases[r.chosen], r.zero_load_objects);
  html += bar_chart(r.bin_counts, bin_titles, "objects") + "\n";
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
  html += "<script type=\"application/json\" id=\"report-data\">" + json + "</script>\n<script>" + kScript +
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
