#pragma once
// The lbsim executable: its options and its two outputs (a table for people, a JSON line for
// machines).

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tessera/lb/model.hpp"
#include "tessera/lb/advisor.hpp"
#include "tessera/lb/reshape.hpp"
#include "tessera/lbsim/simulation.hpp"

namespace tessera::lbsim::app {

struct Options {
  std::string data;                      // DIR/STEM of recorded LB data
  std::optional<lb::PhaseId> phase;      // default: the data's first phase
  std::string synthetic;                 // a synthetic spec (synthetic.hpp)
  bool use_synthetic = false;
  std::string strategy;                  // empty: no balancing
  std::string args;                      // "key=value ..." for the strategy
  std::string model = "persistence";     // load model (lb/load_model.hpp) the strategy sees
  lb::Rank ranks = 0;                    // 0: as many as the data has
  lb::Rank ranks_per_node = 0;           // > 0: nodes of that many ranks; 0: the data's shared_node
  std::string work;                      // --work; empty: the strategy's own model
  bool stats = false;
  bool json = false;
  std::string out;                       // DIR/STEM for the balanced placement
  Network network;                       // prices the modelled wall time
  lb::ReshapeOptions reshape;            // --split_above, --merge_below (lb/reshape.hpp)
  std::vector<lb::Rank> leaving;         // --leaving: ranks that leave (lb/evacuate.hpp)
};

// Parses argv. Returns nullopt after printing help (exit code 0 in *exit_code) or a usage error
// (message on stderr, non-zero *exit_code).
std::optional<Options> parse_options(int argc, char** argv, int* exit_code);

struct Run {
  std::string source;        // "synthetic ..." or the data stem
  lb::PhaseId phase = 0;
  std::int64_t objects = 0;
  std::int64_t nodes = 0;    // nodes the ranks were placed on (each rank its own without a node map)
  std::string strategy;      // name and args as given
  SimResult result;
  std::vector<PhaseStatistics> phases;
  Network network;
  std::int64_t peak_rss_bytes = 0;  // the whole lbsim process's, input included
  std::optional<lb::ReshapeCounts> reshape;  // what split and merge did, when asked for
  std::vector<lb::Rank> leaving;             // the ranks that left (--leaving), ascending
  std::int64_t left_on_leaving = 0;          // objects still on them after the plan (not migratable)
};

void print_table(std::ostream& out, const Run& run, bool stats);

// `lbsim report ...` (argv[0] is "report"): writes the HTML report of LB data. Returns the exit
// code: 0, 1 for unreadable data or an unwritable file, 2 for bad usage.
int run_report_command(int argc, char** argv);
// `lbsim advise ...` (argv[0] is "advise"): the advisor (tessera/lbsim/advisor.hpp). Returns the
// exit code: 0, 1 for unreadable data or bad input (one message on stderr), 2 for bad usage.
int run_advise_command(int argc, char** argv);
// The ranked rows as a JSON array: [{"flags":..,"predicted_s":..,"gain":..,"migrations":..,"lb_s":..}].
std::string advice_json(const std::vector<lb::AdviceRow>& rows);
// One line: {"initial_imbalance":..,"final_imbalance":..,"lower_bound_imbalance":..,
// "migrations":..,"strategy_s":..,"iterations":[..],"phases":[..]}.
std::string json_line(const Run& run);

}  // namespace tessera::lbsim::app
