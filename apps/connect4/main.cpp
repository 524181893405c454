// tessera-connect4: the move a minimax search of the next --lookahead moves chooses in a
// four-in-a-row position, with its value and the number of nodes evaluated.

#include <chrono>
#include <exception>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "options.hpp"
#include "tessera/connect4/minimax.hpp"

namespace {

using namespace tessera::connect4;

struct Report {
  SearchResult search;
  double seconds = 0;
  std::int64_t peak_tasks = 0;  // static and dynamic only
};

Report run(const app::Options& options) {
  Report report;
  if (!options.pool.scheme) {
    const auto start = std::chrono::steady_clock::now();
    report.search = search_sequential(options.board, options.lookahead);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
  }
  const TaskSearchResult result =
      search_tasks(options.board, options.lookahead, *options.pool.scheme, options.pool.workers);
  report.search = result.search;
  report.seconds = result.run.wall_seconds;
  report.peak_tasks = result.run.peak_tasks;
  return report;
}

void print(const app::Options& options, const Report& report) {
  const bool first_to_move = options.board.moves() % 2 == 0;
  std::cout << fmt::format("position   '{}' ({} moves, {} player to move)\n{}", options.position,
                           options.board.moves(), first_to_move ? "first (X)" : "second (O)",
                           options.board.drawing());
  std::cout << fmt::format("lookahead  {}\nscheme     {} ({} worker{})\n", options.lookahead, options.pool.name(),
                           options.pool.workers, options.pool.workers == 1 ? "" : "s");
  std::cout << fmt::format("move       {}\nvalue      {}\nnodes      {}\n", report.search.column + 1,
                           report.search.value, report.search.nodes);
  if (options.pool.scheme) std::cout << fmt::format("peak tasks {}\n", report.peak_tasks);
  std::cout << fmt::format("seconds    {:.4f}\n", report.seconds);
  if (options.json) {
    const nlohmann::ordered_json json = {
        {"move", report.search.column + 1},     {"value", report.search.value},
        {"nodes", report.search.nodes},         {"scheme", options.pool.name()},
        {"workers", options.pool.workers},           {"seconds", report.seconds},
    };
    std::cout << json.dump() << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  const app::CommandLine command_line = app::parse_command_line(argc, argv);
  if (!command_line.options) return command_line.exit_code;
  try {
    print(*command_line.options, run(*command_line.options));
  } catch (const std::exception& error) {
    std::cerr << "tessera-connect4: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
