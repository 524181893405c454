// tessera-jacobi's command line: CLI11 for the application's flags, validated here before the
// runtime starts; the --tessera_ flags pass through untouched to tessera::Context.
#include "tessera/jacobi/driver/options.hpp"

#include <tessera/apps/cli/spmd_app.hpp>
#include <tessera/apps/runtime_flags.hpp>
#include <tessera/runtime/error.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace tessera::jacobi {

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

// "4x8" -> {4, 8}. Anything else, or a count below 1, names the flag and the expected form.
std::pair<std::int64_t, std::int64_t> parse_tiles(const std::string& text) {
  const std::string expected = fmt::format("--tiles {}: expected ROWSxCOLS with both at least 1, e.g. 4x4", text);
  const auto x = text.find('x');
  require(x != std::string::npos && x > 0 && x + 1 < text.size(), expected);
  std::size_t used_rows = 0;
  std::size_t used_cols = 0;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  try {
    rows = std::stoll(text.substr(0, x), &used_rows);
    cols = std::stoll(text.substr(x + 1), &used_cols);
  } catch (const std::logic_error&) {  // std::stoll: not a number, or out of range
    throw Error(expected);
  }
  require(used_rows == x && used_cols == text.size() - x - 1 && rows >= 1 && cols >= 1, expected);
  return {rows, cols};
}

// Checkpoints hold the collection's tiles: the MPI mode has none to write or to restore.
void check_checkpoint_flags(const Options& options, bool restart_given) {
  require(options.checkpoint_every >= 0, fmt::format("--checkpoint_every {}: expected 0 (never) or a positive "
                                                     "interval", options.checkpoint_every));
  require(!restart_given || !options.restart.empty(), "--restart: expected the checkpoint directory, e.g. --restart ck");
  const bool restarts = !options.restart.empty() || apps::has_flag(options.tessera_args, "--tessera_restart");
  require(options.mode == Mode::tiles || (options.checkpoint_every == 0 && !restarts),
          "--checkpoint_every and --restart checkpoint the tiles, which only --mode tiles has");
  require(options.checkpoint_every == 0 || apps::has_flag(options.tessera_args, "--tessera_checkpoint_dir"),
          fmt::format("--checkpoint_every {}: expected --tessera_checkpoint_dir=DIR to say where the "
                      "checkpoints go", options.checkpoint_every));
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options options;
  std::string mode = "tiles";
  std::string tiles = "4x4";
  std::string report = "text";

  CLI::App app{"tessera-jacobi: a 2-D Jacobi solver as plain MPI and as a collection of tiles", "tessera-jacobi"};
  app.add_option("--mode", mode, "mpi: one block per rank, MPI halo exchange; tiles: a collection of tiles")
      ->check(CLI::IsMember({"mpi", "tiles"}))
      ->capture_default_str();
  app.add_option("--nx", options.nx, "interior points per row")->capture_default_str();
  app.add_option("--ny", options.ny, "interior points per column")->capture_default_str();
  app.add_option("--tiles", tiles, "tiles mode: ROWSxCOLS tiles over the grid")->capture_default_str();
  app.add_option("--iterations", options.iterations, "Jacobi sweeps at most")->capture_default_str();
  app.add_option("--tolerance", options.tolerance, "stop once a sweep's residual (max norm) is below this")
      ->capture_default_str();
  app.add_option("--report", report, "text, or json: one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("--checkpoint_every", options.checkpoint_every,
                 "tiles mode: checkpoint every N sweeps into --tessera_checkpoint_dir (0: never)")
      ->capture_default_str();
  app.add_option("--restart", options.restart,
                 "tiles mode: continue from the newest complete checkpoint in DIR, on any rank count");

  return apps::parse_spmd_app_flags(app, argc, argv, options, 2, [&] {
    options.tiles_given = app.count("--tiles") > 0;
    options.mode = mode == "mpi" ? Mode::mpi : Mode::tiles;
    options.json = report == "json";
    require(options.nx >= 1, fmt::format("--nx {}: expected at least 1 point", options.nx));
    require(options.ny >= 1, fmt::format("--ny {}: expected at least 1 point", options.ny));
    require(options.iterations >= 1, fmt::format("--iterations {}: expected at least 1", options.iterations));
    require(options.tolerance >= 0.0, fmt::format("--tolerance {}: expected 0 or more", options.tolerance));
    std::tie(options.tile_rows, options.tile_cols) = parse_tiles(tiles);
    // Every tile must hold at least one point.
    require(options.tile_rows <= options.ny && options.tile_cols <= options.nx,
            fmt::format("--tiles {} on a grid of --ny {} by --nx {}: expected at most one tile per point "
                        "in each direction",
                        tiles, options.ny, options.nx));
    check_checkpoint_flags(options, app.count("--restart") > 0);
    if (!options.restart.empty()) options.tessera_args.push_back("--tessera_restart=" + options.restart);
  });
}

}  // namespace tessera::jacobi
