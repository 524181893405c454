// tessera-nqueens: the number of solutions of the N-queens problem. Parses the command
// line, runs one search driver, and prints its report.

#include <exception>
#include <iostream>

#include "drivers.hpp"
#include "options.hpp"
#include "report.hpp"

int main(int argc, char** argv) {
  using namespace tessera::nqueens::app;
  const CommandLine command_line = parse_command_line(argc, argv);
  if (!command_line.options) {
    return command_line.exit_code;
  }
  const Options& options = *command_line.options;
  try {
    const SearchReport report = options.workers > 0 ? run_workers(options) : run_sequential(options);
    print_report(std::cout, options, report);
  } catch (const std::exception& error) {
    std::cerr << "tessera-nqueens: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
