#pragma once
/// The command line of tessera-jacobi.
///
///   --mode mpi|tiles    plain MPI, one block per rank; or a collection of tiles (default tiles)
///   --nx, --ny          interior points per row and per column (default 256 x 256)
///   --tiles RxC         tiles mode: R rows by C columns of tiles (default 4x4)
///   --iterations N      Jacobi sweeps at most (default 100)
///   --tolerance t       stop after the first sweep whose residual is below t (default 0: never)
///   --report text|json  json: one JSON object on the last line of standard output
///   --checkpoint_every N  tiles mode: checkpoint the tiles and the iteration after every N-th
///                       sweep into --tessera_checkpoint_dir (required with it; 0: never)
///   --restart DIR       tiles mode: continue from the newest complete checkpoint in DIR, on any
///                       rank count, with the checkpoint's tiling, up to --iterations
///
/// Arguments starting with `--tessera_` (and the value after one written without '=') belong to
/// the Tessera runtime: they are kept in `tessera_args`, in order, for tessera::Context, which
/// parses them itself. `--restart DIR` joins them as `--tessera_restart=DIR`. The application's
/// flags are parsed before the runtime starts, so the runtime sees a restart only once the
/// application has accepted it (the same order as tessera-pic).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tessera/apps/spmd_app.hpp>

namespace tessera::jacobi {

enum class Mode { mpi, tiles };

struct Options {
  Mode mode = Mode::tiles;
  std::int64_t nx = 256;
  std::int64_t ny = 256;
  std::int64_t tile_rows = 4;
  std::int64_t tile_cols = 4;
  bool tiles_given = false;  ///< --tiles was on the command line (a restart must then match it)
  int iterations = 100;
  double tolerance = 0.0;
  bool json = false;
  int checkpoint_every = 0;               ///< tiles mode: checkpoint every N sweeps (0: never)
  std::string restart;                    ///< tiles mode: restart from this checkpoint directory
  std::vector<std::string> tessera_args;  ///< the `--tessera_` flags, for tessera::Context
};

/// What parsing produced: options to run, or a message (help text or an error) and the exit code.
using ParseResult = apps::ParseResult<Options>;

/// Parses and validates the flags (argv[0] is the program name). Every rank gets the same result,
/// so on an error every rank exits without waiting for the others. Errors name the flag, its value
/// and what was expected (e.g. "--tiles 0x4: expected ROWSxCOLS with ROWS >= 1").
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace tessera::jacobi
