// tessera-uts: Unbalanced Tree Search. The shared search-app main (tessera/apps/search_main.hpp)
// starts tessera::Context, parses the command line, runs one of these drivers and prints the
// report on rank 0.

#include <tessera/apps/search_main.hpp>

#include "drivers.hpp"
#include "options.hpp"
#include "report.hpp"

int main(int argc, char** argv) {
  using namespace tessera::uts::app;
  return tessera::apps::run_search_app<Options, tessera::uts::TreeCounts>(
      argc, argv,
      {.name = kProgram,
       .parse = parse_command_line,
       .sequential = run_sequential,
       .workers = run_workers,
       .distributed = run_distributed,
       .print = print_report,
       .json = report_json});
}
