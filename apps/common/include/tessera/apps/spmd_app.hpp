#pragma once
/// The start-up every MPI application that runs Tessera inside itself shares (tessera-jacobi,
/// tessera-soak, tessera-pic): it parses its own flags before the runtime starts, so the runtime
/// sees a restart only once the application has accepted it; it sets the --tessera_ flags aside
/// for tessera::Context (runtime_flags.hpp); and on bad input it prints one message on rank 0
/// and every rank exits alike, since every rank parsed the same arguments. The parse itself is
/// CLI11 glue (cli/tessera/apps/cli/spmd_app.hpp), for the apps' options.cpp only.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::apps {

/// What parsing gave: options to run with, or a message (the help text, or the error) and the
/// exit code (0 after help).
template <class Options>
struct ParseResult {
  std::optional<Options> options;
  std::string message;
  int exit_code = 0;
};

/// On rank 0, prints a parse result's message: help to stdout, an error to stderr. Returns the
/// exit code, for every rank.
int print_parse_message(const std::string& message, int exit_code, int rank);

/// tessera::Context's arguments: `program` first (a checkpoint records it and a restart checks
/// it), then the application's --tessera_ flags, in order.
std::vector<std::string> context_arguments(std::string_view program, const std::vector<std::string>& tessera_args);

/// The main() of an MPI application: MPI_Init_thread at the level the `--tessera_` flags need
/// (Context::mpi_thread_level), `run(argc, argv)` (which owns everything that uses MPI, so it is
/// gone before MPI_Finalize), MPI_Finalize. Returns run's exit code.
int mpi_main(int argc, char** argv, int (*run)(int argc, char** argv));

}  // namespace tessera::apps
