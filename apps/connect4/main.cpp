// tessera-connect4: the move a minimax search of the next --lookahead moves chooses in a
// four-in-a-row position, with its value and the number of nodes evaluated. The work-pool apps'
// main (tessera/apps/work_pool_app.hpp) parses, runs the search sequentially or as tasks on the
// chosen work-pool, and prints these lines around its own.

#include <fmt/format.h>

#include <tessera/apps/work_pool_app.hpp>

#include "options.hpp"
#include "tessera/connect4/minimax.hpp"

int main(int argc, char** argv) {
  using namespace tessera::connect4;
  using app::Options;
  return tessera::apps::run_work_pool_app<Options, SearchResult>(
      argc, argv,
      {.name = app::kProgram,
       .parse = app::parse_command_line,
       .run =
           [](const Options& o) {
             return tessera::apps::run_kernel(
                 o.pool, [&] { return search_sequential(o.board, o.lookahead); },
                 [&](tessera::collections::steal::WorkPoolScheme scheme, std::size_t workers) {
                   const TaskSearchResult result = search_tasks(o.board, o.lookahead, scheme, workers);
                   return std::pair{result.search, result.run};
                 });
           },
       .print_input =
           [](std::ostream& out, const Options& o) {
             const bool first_to_move = o.board.moves() % 2 == 0;
             out << fmt::format("position   '{}' ({} moves, {} player to move)\n{}", o.position, o.board.moves(),
                                first_to_move ? "first (X)" : "second (O)", o.board.drawing());
             out << fmt::format("lookahead  {}\n", o.lookahead);
           },
       .print_answer =
           [](std::ostream& out, const Options&, const SearchResult& r) {
             out << fmt::format("move       {}\nvalue      {}\nnodes      {}\n", r.column + 1, r.value, r.nodes);
           },
       .json = [](const Options&, const SearchResult& r) -> nlohmann::ordered_json {
         return {{"move", r.column + 1}, {"value", r.value}, {"nodes", r.nodes}};
       }});
}
