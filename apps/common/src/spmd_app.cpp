// The start-up the MPI applications share.
#include "tessera/apps/spmd_app.hpp"

#include <tessera/tessera.hpp>

#include <cstdio>

#include <mpi.h>

namespace tessera::apps {

int print_parse_message(const std::string& message, int exit_code, int rank) {
  if (rank == 0) {
    std::FILE* stream = exit_code == 0 ? stdout : stderr;
    std::fprintf(stream, "%s\n", message.c_str());
    std::fflush(stream);
  }
  return exit_code;
}

std::vector<std::string> context_arguments(std::string_view program, const std::vector<std::string>& tessera_args) {
  std::vector<std::string> args{std::string(program)};
  args.insert(args.end(), tessera_args.begin(), tessera_args.end());
  return args;
}

int mpi_main(int argc, char** argv, int (*run)(int argc, char** argv)) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, tessera::Context::mpi_thread_level(argc, argv), &provided);
  const int code = run(argc, argv);
  MPI_Finalize();
  return code;
}

}  // namespace tessera::apps
