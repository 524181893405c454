#pragma once
/// The main() of a work-pool application (tessera-connect4, tessera-octree): one process, no MPI.
/// It parses the command line, runs the app's kernel sequentially or on the chosen work-pool,
/// and prints the report: the app's input lines, the scheme line, the app's answer lines, the
/// peak task count and the time; with --report=json one JSON object on the last line, the app's
/// keys followed by scheme, workers and seconds. An app supplies its parts as a WorkPoolApp:
///
///   int main(int argc, char** argv) {
///     return tessera::apps::run_work_pool_app<Options, SearchResult>(argc, argv, {
///         .name = "tessera-connect4", .parse = parse_command_line,
///         .run = [](const Options& o) {
///           return run_kernel(o.pool, [&] { return search_sequential(...); },
///                             [&](WorkPoolScheme scheme, std::size_t workers) { ... });
///         },
///         .print_input = ..., .print_answer = ..., .json = ...});
///   }
///
/// Exit codes: 0; the parser's (2 for bad input); 1 when the run threw.
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <iostream>
#include <ostream>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include <tessera/collections/steal/work_pool.hpp>

#include "tessera/apps/command_line.hpp"
#include "tessera/apps/work_pool_flags.hpp"

namespace tessera::apps {

/// The base of a work-pool app's Options: --scheme and --tessera_workers, and --report.
struct WorkPoolOptions {
  WorkPoolChoice pool;
  bool json = false;  ///< --report=json
};

/// An app's answer beside how the run went.
template <class Answer>
struct WorkPoolReport {
  Answer answer;
  double seconds = 0;           ///< the kernel alone, wall clock
  std::int64_t peak_tasks = 0;  ///< static and dynamic only
};

template <class Options, class Answer>
struct WorkPoolApp {
  std::string_view name;  ///< the program, the prefix of its error messages
  std::function<CommandLine<Options>(int argc, char** argv)> parse;
  /// The kernel, sequentially or on options.pool (run_kernel), after any set-up the time leaves out.
  std::function<WorkPoolReport<Answer>(const Options&)> run;
  /// The lines before the scheme line (the input), and after it (the answer).
  std::function<void(std::ostream&, const Options&)> print_input;
  std::function<void(std::ostream&, const Options&, const Answer&)> print_answer;
  /// The app's own keys of the --report=json object; scheme, workers and seconds follow them.
  std::function<nlohmann::ordered_json(const Options&, const Answer&)> json;
  /// Throws when the answer is inconsistent (a run that lost work); nothing to check by default.
  std::function<void(const Options&, const Answer&)> check = [](const Options&, const Answer&) {};
};

/// "scheme     dynamic (2 workers)"
void print_scheme_line(std::ostream& out, const WorkPoolChoice& pool);
/// The peak tasks (a work-pool run only) and seconds lines.
void print_run_lines(std::ostream& out, const WorkPoolChoice& pool, std::int64_t peak_tasks, double seconds);
/// Appends scheme, workers and seconds to `json`.
void add_run_keys(nlohmann::ordered_json& json, const WorkPoolChoice& pool, double seconds);

/// Times `sequential()`, the kernel on this thread alone, when `pool` is the sequential scheme;
/// otherwise runs `on_pool(scheme, workers)`, which returns the answer beside the work-pool's
/// WorkPoolRun, and takes the pool's own figures (wall seconds, peak tasks).
template <class Sequential, class OnPool>
auto run_kernel(const WorkPoolChoice& pool, Sequential&& sequential, OnPool&& on_pool)
    -> WorkPoolReport<decltype(sequential())> {
  if (pool.scheme) {
    auto [answer, run] = on_pool(*pool.scheme, pool.workers);
    return {std::move(answer), run.wall_seconds, run.peak_tasks};
  }
  const auto start = std::chrono::steady_clock::now();
  auto answer = sequential();
  return {std::move(answer), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0};
}

template <class Options, class Answer>
int run_work_pool_app(int argc, char** argv, const WorkPoolApp<Options, Answer>& app) {
  try {
    const CommandLine<Options> command_line = app.parse(argc, argv);
    if (!command_line.options) return command_line.exit_code;
    const Options& options = *command_line.options;
    const WorkPoolReport<Answer> report = app.run(options);
    app.check(options, report.answer);
    app.print_input(std::cout, options);
    print_scheme_line(std::cout, options.pool);
    app.print_answer(std::cout, options, report.answer);
    print_run_lines(std::cout, options.pool, report.peak_tasks, report.seconds);
    if (options.json) {
      nlohmann::ordered_json json = app.json(options, report.answer);
      add_run_keys(json, options.pool, report.seconds);
      std::cout << json.dump() << "\n";  // the last line, for scripts
    }
  } catch (const std::exception& error) {
    std::cerr << app.name << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace tessera::apps
