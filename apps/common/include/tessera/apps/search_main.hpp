#pragma once
/// The main() of a search application (UTS, NQueens): starts tessera::Context (a job of one rank
/// without mpirun; it parses and removes every --tessera_ flag, the steal flags included), parses
/// the app's command line, runs one driver, and prints the report on rank 0. An app supplies its
/// parts as a SearchApp:
///
///   int main(int argc, char** argv) {
///     return tessera::apps::run_search_app<Options, TreeCounts>(argc, argv, {
///         .name = "tessera-uts", .parse = parse_command_line, .sequential = run_sequential,
///         .workers = run_workers, .distributed = run_distributed, .print = print_report,
///         .json = report_json});
///   }
///
/// Options derive from SearchOptions (search_options.hpp); drivers return a SearchReport<Answer>
/// (search_run.hpp), the app's answer beside how the search ran.
/// Exit codes: 0; the parser's (2 for bad input, on every rank); 1 when the search threw.
#include <algorithm>
#include <exception>
#include <functional>
#include <iostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include <tessera/tessera.hpp>

#include "tessera/apps/finish.hpp"
#include "tessera/apps/search_options.hpp"
#include "tessera/apps/search_report.hpp"
#include "tessera/apps/search_run.hpp"

namespace tessera::apps {

template <class Options, class Answer>
struct SearchApp {
  using Report = SearchReport<Answer>;
  std::string_view name;  ///< the program, the prefix of its error messages
  /// Every rank parses the same arguments (after Context removed its flags) and so reaches the
  /// same verdict; only a `speaking` rank prints.
  std::function<CommandLine<Options>(int argc, char** argv, const SearchJob& job)> parse;
  std::function<Report(const Options&)> sequential;
  std::function<Report(const Options&)> workers;  ///< a pool of Options::pool_workers threads
  /// Collective: every rank runs it and gets the whole search's answer. ctx.steal().options() are
  /// the options' `steal` (the flags with the app's deprecated aliases resolved).
  std::function<Report(const Options&, Context&)> distributed;
  /// The text report; policy_line and print_steals (search_report.hpp) give the shared lines.
  std::function<void(std::ostream&, const Options&, const Report&)> print;
  /// The app's own keys of the --report=json object; run_json's are added to them.
  std::function<nlohmann::json(const Options&, const Report&)> json;
};

template <class Options, class Answer>
int run_search_app(int argc, char** argv, const SearchApp<Options, Answer>& app) {
  Context ctx(argc, argv);
  if (ctx.help_shown()) return 0;
  Runtime& rt = ctx.runtime();
  const SearchJob job{ctx.steal_flags(), ctx.steal_flags().given("--tessera_workers"), rt.size(), rt.rank() == 0};
  try {
    const CommandLine<Options> command_line = app.parse(argc, argv, job);
    if (!command_line.options) return command_line.exit_code;
    const Options& options = *command_line.options;
    if (options.distributed) ctx.steal().set_options(options.steal);
    const SearchReport<Answer> report = options.distributed       ? app.distributed(options, ctx)
                                        : options.pool_workers > 0 ? app.workers(options)
                                                                   : app.sequential(options);
    const int finished = finish(app.name, ctx);
    if (!job.speaking) return finished;
    app.print(std::cout, options, report);
    if (options.json) {
      nlohmann::json json = app.json(options, report);
      json.update(run_json(report.run));
      std::cout << json.dump() << "\n";  // the last line, for scripts
    }
    return finished;
  } catch (const std::exception& error) {
    std::cerr << app.name << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace tessera::apps
