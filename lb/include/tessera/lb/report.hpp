#pragma once
// An offline HTML report of LB data: what vt-tv shows of a run, in one file that opens
// from disk in any browser with no network access. The charts are drawn by Chart.js 3 (Debian's
// libjs-chart.js, inlined at build time) and lb/src/report/report.js: each has axis titles with
// units and tick labels, the charts over phases share a zoom on a range of phases (two fields, or
// the link's #phases=FROM-TO), and values show on hover.
//
// It draws, from any data set `read_lb_data` reads (vt's recordings included):
// - rank loads per phase as a map with a rank axis, a phase axis and a colour scale (each cell's
//   load over the busiest of its phase); more than `max_rows` ranks or
//   `max_columns` phases are aggregated into groups of consecutive ranks or phases, each cell the
//   largest load of its group, so 10^4 ranks draw as a few hundred rows, never 10^6 shapes;
// - the rank loads of one phase as a bar chart (a menu picks the phase; default: the phase with
//   the largest imbalance), aggregated the same way;
// - the imbalance I = max/avg - 1 per phase as measured, and, when the caller supplies it, the I a
//   strategy reaches on each phase's loads (lbsim's `report --strategy`);
// - migrations per phase: objects recorded on another rank than in the phase before;
// - the distribution of object loads of the chosen phase (a histogram on log-spaced bins);
// - the heaviest communication edges of the chosen phase, by bytes, and whether each crosses ranks;
// - when the caller supplies it, the balancer advisor's ranking (advisor.hpp; lbsim's `report`
//   adds it by default): an "Advice" table of options with predicted time, gain, migrations, LB
//   seconds and the --tessera_lb_* flags of each;
// - when the caller supplies them, an elastic run's rescales (a "Rescales" table: each one's phase,
//   change and stages in seconds) and a note placing this data among the run's rank sets.
// Loads are seconds, as in the data.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tessera/lb/model.hpp"

namespace tessera::lb {

// One row of the Advice section.
struct ReportAdvice {
  std::size_t rank = 1;  // place in the advisor's whole ranking, from 1
  std::string option;   // e.g. "TemperedLB iters=4 deterministic=true, every 10, linear:5"
  std::string flags;    // the --tessera_lb_* flags; empty for no LB
  double predicted_s = 0.0;
  double gain = 1.0;    // predicted time of no LB / predicted_s
  std::int64_t migrations = 0;
  double lb_s = 0.0;
};

// One row of the Rescales section: an elastic run's change of its rank set (seconds).
struct ReportRescale {
  std::int64_t phase = 0;  // at whose end it happened
  std::string change;      // e.g. "shrink 4 -> 3 ranks (rank(s) 1 left)"
  double decision_s = 0.0;
  double evacuation_s = 0.0;  // shrink: the balancing that emptied the leaving ranks
  double spawn_s = 0.0;       // expand: starting the new processes
  double quiescence_s = 0.0;
  double cut_s = 0.0;         // the cut (shrink) or merge (expand)
  double first_phase_s = 0.0;
  std::int64_t migrations = 0;
};

struct ReportOptions {
  std::string title = "Tessera LB report";
  std::optional<PhaseId> phase;          // the bar chart, histogram and edges' phase
  std::size_t max_rows = 256;            // rank groups in the heat map and bar chart
  std::size_t max_columns = 256;         // phase groups in the heat map
  std::size_t top_edges = 20;
  std::vector<double> balanced_imbalance;  // per phase (in phase_ids() order), or empty
  std::string balanced_label;              // e.g. "TemperedLB", shown with balanced_imbalance
  std::vector<ReportAdvice> advice;        // ranked best first, or empty (no Advice section)
  std::string advice_note;                 // how the advice was computed (costs, bandwidth's source)
  std::vector<ReportRescale> rescales;     // an elastic run's, or empty (no Rescales section)
  std::string rank_set_note;               // which rank set this data is, and where the others are
};

// What the report draws, computed from the data (and testable without HTML).
struct ReportData {
  struct Group {
    Rank first = 0;  // first and last rank (or phase index) of the group, inclusive
    Rank last = 0;
  };
  struct HeavyEdge {
    std::string from;
    std::string to;
    double bytes = 0.0;
    std::int64_t messages = 0;
    bool off_rank = false;
  };

  std::string title;
  Rank ranks = 0;
  std::vector<PhaseId> phases;
  std::vector<Group> rows;                 // rank groups
  std::vector<Group> columns;              // phase groups (indices into `phases`)
  std::vector<std::vector<double>> heat;   // [row][column]: largest rank load of the group
  std::vector<std::vector<double>> bars;   // [phase index][row]: largest rank load of the group
  std::vector<double> imbalance;           // per phase, measured
  std::vector<double> balanced_imbalance;  // per phase, or empty
  std::string balanced_label;
  std::vector<std::int64_t> migrations;    // per phase; 0 for the first
  std::size_t chosen = 0;                  // index into `phases`
  std::vector<double> bin_edges;           // object-load histogram of the chosen phase (seconds)
  std::vector<std::int64_t> bin_counts;    // bin_edges.size() - 1 counts
  std::int64_t zero_load_objects = 0;      // objects with load 0, outside the log bins
  std::vector<HeavyEdge> edges;            // heaviest first
  std::vector<ReportAdvice> advice;        // as given in the options
  std::string advice_note;
  std::vector<ReportRescale> rescales;     // as given in the options
  std::string rank_set_note;
};

// Throws DataError when the data has no phase or the requested phase is absent.
ReportData summarize(const LbData& data, const ReportOptions& options);

// The whole HTML document.
std::string render_html(const ReportData& report);

// summarize + render_html + write. Throws DataError naming `out` when it cannot be written.
void write_report(const LbData& data, const ReportOptions& options, const std::filesystem::path& out);

}  // namespace tessera::lb
