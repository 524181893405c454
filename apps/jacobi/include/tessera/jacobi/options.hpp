#pragma once
/// The command line of tessera-jacobi (after tessera::Context has removed the --tessera_ flags).
///
///   --mode mpi|tiles    plain MPI, one block per rank; or a collection of tiles (default tiles)
///   --nx, --ny          interior points per row and per column (default 256 x 256)
///   --tiles RxC         tiles mode: R rows by C columns of tiles (default 4x4)
///   --iterations N      Jacobi sweeps at most (default 100)
///   --tolerance t       stop after the first sweep whose residual is below t (default 0: never)
///   --report text|json  json: one JSON object on the last line of standard output
#include <cstdint>
#include <optional>
#include <string>

namespace tessera::jacobi {

enum class Mode { mpi, tiles };

struct Options {
  Mode mode = Mode::tiles;
  std::int64_t nx = 256;
  std::int64_t ny = 256;
  std::int64_t tile_rows = 4;
  std::int64_t tile_cols = 4;
  int iterations = 100;
  double tolerance = 0.0;
  bool json = false;
};

/// What parsing produced: options to run, or a message (help text or an error) and the exit code.
struct ParseResult {
  std::optional<Options> options;
  std::string message;
  int exit_code = 0;
};

/// Parses and validates the flags. Every rank gets the same result, so on an error every rank
/// exits without waiting for the others. Errors name the
/// flag, its value and what was expected (e.g. "--tiles 0x4: expected ROWSxCOLS with ROWS >= 1").
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace tessera::jacobi
