// tessera-nqueens: the number of N-queens solutions. Starts the runtime (a job of one rank
// without mpirun), parses the command line, runs one search driver, and prints its report on
// rank 0.

#include <exception>
#include <iostream>

#include <tessera/collections/steal/steal_flags.hpp>
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include "drivers.hpp"
#include "options.hpp"
#include "report.hpp"

int main(int argc, char** argv) {
  using namespace tessera::nqueens::app;
  tessera::TerminationFlags termination_flags;
  tessera::RuntimeOptions runtime_options;
  tessera::collections::steal::StealFlags steal_flags;
  runtime_options.flag_groups = {&termination_flags, &steal_flags};
  tessera::Runtime rt(argc, argv, runtime_options);
  tessera::Termination term(rt, termination_flags);
  const bool speaking = rt.rank() == 0;
  // Every rank parses the same arguments and so reaches the same verdict.
  const CommandLine command_line = parse_command_line(argc, argv, steal_flags, speaking, rt.size());
  if (!command_line.options) {
    return command_line.exit_code;
  }
  const Options& options = *command_line.options;
  try {
    const SearchReport report = options.distributed ? run_distributed(options, rt, term)
                                : options.workers > 0 ? run_workers(options)
                                                      : run_sequential(options);
    if (speaking) print_report(std::cout, options, report);
  } catch (const std::exception& error) {
    std::cerr << "tessera-nqueens: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
