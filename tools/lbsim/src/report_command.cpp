// `lbsim report`: LB data as one self-contained HTML file (tessera/lb/report.hpp).
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app.hpp"
#include "tessera/lb/advisor.hpp"
#include "tessera/lb/lb_data_io.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lb/report.hpp"

namespace tessera::lbsim::app {

int run_report_command(int argc, char** argv) {
  std::string data_stem;
  std::string out;
  std::string strategy_name;
  std::string args;
  lb::ReportOptions options;
  CLI::App cli{"lbsim report: write LB data as one self-contained HTML report (heat map of rank loads per "
               "phase, one phase's rank loads, I per phase, migrations, object loads, heaviest edges)",
               "lbsim report"};
  cli.add_option("--data", data_stem, "recorded LB data DIR/STEM (files STEM.<rank>.json, plain or brotli)")
      ->required();
  cli.add_option("-o,--out", out, "the HTML file to write")->required();
  cli.add_option("--phase", options.phase, "phase of the bar chart, histogram and edges (default: most imbalanced)");
  cli.add_option("--strategy", strategy_name, "also plot the I this strategy reaches on each phase's loads");
  cli.add_option("--args", args, "strategy arguments, \"key=value ...\"");
  std::size_t advice_rows = 10;
  std::string fixed = "counted";
  cli.add_option("--advice-rows", advice_rows, "rows of the Advice section (lbsim advise's best, and no LB); 0: none")
      ->capture_default_str();
  cli.add_option("--fixed-loads", fixed, "for the advice: counted (strategies see non-migratable loads) or ignored")
      ->check(CLI::IsMember({"counted", "ignored"}))
      ->capture_default_str();
  cli.add_option("--title", options.title, "the report's title")->capture_default_str();
  cli.add_option("--max_rows", options.max_rows, "rank groups drawn at most")->check(CLI::PositiveNumber)->capture_default_str();
  cli.add_option("--max_columns", options.max_columns, "phase groups drawn at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  if (strategy_name.empty() && !args.empty()) {
    std::cerr << "lbsim report: --args needs --strategy NAME\n";
    return 2;
  }
  try {
    const lb::LbData data = lb::read_lb_data(data_stem);
    if (!strategy_name.empty()) {
      const std::unique_ptr<lb::Strategy> strategy = lb::Registry::builtin().create(strategy_name, args);
      const WorkModel work;
      for (lb::PhaseId phase : data.phase_ids())
        options.balanced_imbalance.push_back(
            simulate(strategy.get(), phase_inputs(data, phase), work).after.imbalance());
      options.balanced_label = strategy_name;
    }
    if (advice_rows > 0) {
      lb::CostModel cost;
      cost.fixed_loads_counted = fixed == "counted";
      lb::add_advice(data, advice_rows, cost, options);
    }
    lb::write_report(data, options, out);
  } catch (const std::exception& e) {
    std::cerr << "lbsim report: " << e.what() << '\n';
    return 1;
  }
  std::cout << "lbsim report: wrote " << out << '\n';
  return 0;
}

}  // namespace tessera::lbsim::app
