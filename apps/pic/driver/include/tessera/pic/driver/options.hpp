#pragma once
/// Command-line options of tessera-pic, parsed with CLI11.
///
///     tessera-pic [--mode spmd|amt] [--L 960] [--n 600000] [--k 0] [--m 1] [--steps 300]
///                 [--distribution PATCH 0 239 0 239] [--print_every 25] [--report text|json]
///                 [--dump_particles FILE] [--step_log FILE] [--colors_per_rank 24]
///                 [--recut auto|off] [--color_loads measured|particles]
///                 [--checkpoint_every N] [--restart DIR]
///
/// `--distribution` takes the benchmark's spelling: GEOMETRIC rho | SINUSOIDAL | LINEAR alpha beta
/// | PATCH xl xr yb yt (inclusive cell bounds). With no arguments the run is the default input of
/// the main job: L = 960, a PATCH 0 239 0 239 drifting diagonally (k = 0, m = 1), n = 600000
/// (a step of SPMD on the slowest of 2 ranks takes over 10 ms here), 300 steps. Without
/// `--distribution` the patch scales with L: PATCH 0 L/4-1 0 L/4-1.
///
/// Arguments starting with `--tessera_` (and the value after one written without '=') are not
/// tessera-pic's: they are kept in `tessera_args` for the Tessera runtime of `--mode=amt`, which
/// parses them itself (balancer, interval, load clock, LB data...). With `--mode=spmd` they are an
/// error, since no runtime is started there.
///
/// `--recut` (AMT only): with a balancer named (`--tessera_lb_name`), `auto` moves the
/// color boundaries between steps when one color holds more than a quarter of a rank's share of
/// the particles, and balances right after (recut.hpp); `off` keeps the even split.
///
/// `--color_loads` (AMT only): `measured` gives the balancer each color's measured update time;
/// `particles` gives it each color's particle count times the seconds per particle the ranks
/// measured in the phase (recut_load_model), the load the color brings to the next phase without
/// the noise of timing it alone, which split pieces also get (their share of the particles).
///
/// Checkpoints (AMT only): `--checkpoint_every N` checkpoints the colors and the step
/// after every N-th step into `--tessera_checkpoint_dir` (required with it); `--restart DIR`
/// continues from the newest complete checkpoint in DIR (it becomes `--tessera_restart=DIR`), on
/// any rank count, with the checkpoint's color grid, up to `--steps`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tessera/apps/spmd_app.hpp>

#include "tessera/pic/driver/time_to_solution.hpp"
#include "tessera/pic/problem.hpp"

namespace tessera::pic::driver {

struct Options {
  std::string mode = "spmd";
  Problem problem;
  std::int64_t steps = 300;
  std::int64_t print_every = 25;  ///< 0: no per-step lines
  bool json = false;              ///< --report=json: the summary as one JSON object, last line
  std::string dump_particles;     ///< file for the final particles sorted by id; empty: none
  std::string step_log;           ///< CSV file of the per-step statistics; empty: none
  std::int64_t colors_per_rank = 24;  ///< AMT only: tiles (colors) per rank
  std::string recut = "off";           ///< AMT only: auto (re-cut colors when one is too heavy, recut.hpp) or off
  std::string color_loads = "measured";  ///< AMT only: measured or particles (the balancer's loads)
  std::int64_t checkpoint_every = 0;   ///< AMT only: checkpoint every N steps (0: never)
  std::string restart;                 ///< AMT only: restart from this checkpoint directory
  std::vector<std::string> tessera_args;  ///< AMT only: the `--tessera_` flags, in order
  Clock::time_point started = Clock::now();  ///< start of the program, for init_s (run() sets it)
};

/// Either options to run with, or the text to print and the exit code (help: 0, error: 1).
using ParseResult = apps::ParseResult<Options>;

/// Parses argv (argv[0] is the program name). Every rank gets the same result for the same argv, so
/// all ranks stop together on a bad flag.
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace tessera::pic::driver
