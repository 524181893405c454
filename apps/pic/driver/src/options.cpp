#include "tessera/pic/driver/options.hpp"

#include <tessera/apps/cli/spmd_app.hpp>
#include <tessera/apps/runtime_flags.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include <tessera/runtime/error.hpp>

namespace tessera::pic::driver {

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) {
    throw InputError(message);
  }
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options options;
  std::vector<std::string> distribution;  // empty: the default PATCH, a quarter of the grid per side
  std::string report = "text";
  Problem& problem = options.problem;

  CLI::App app{"tessera-pic: the ParRes Kernels PIC benchmark as an SPMD or AMT (colors) code",
               "tessera-pic"};
  app.add_option("--mode", options.mode, "spmd: one tile per rank; amt: colors in a collection")
      ->check(CLI::IsMember({"spmd", "amt"}))
      ->capture_default_str();
  app.add_option("-L,--L", problem.grid_size, "cells per side of the periodic grid (even)")
      ->capture_default_str();
  app.add_option("-n,--n", problem.particles, "requested particle count (the draw places about this many)")
      ->capture_default_str();
  app.add_option("-k,--k", problem.k, "particles move 2k+1 cells in x per step")->capture_default_str();
  app.add_option("-m,--m", problem.m, "particles move m cells in y per step")->capture_default_str();
  app.add_option("--steps", options.steps, "time steps to run")->capture_default_str();
  app.add_option("--distribution", distribution,
                 "GEOMETRIC rho | SINUSOIDAL | LINEAR alpha beta | PATCH xl xr yb yt "
                 "[default: PATCH 0 L/4-1 0 L/4-1, the cells of the grid's lower-left quarter per side]")
      ->expected(1, 5);
  app.add_option("--print_every", options.print_every, "print step statistics every N steps (0: never)")
      ->capture_default_str();
  app.add_option("--report", report, "text, or json: the summary as one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("--dump_particles", options.dump_particles,
                 "write the final particles, sorted by id, to this file");
  app.add_option("--step_log", options.step_log, "write per-step statistics (CSV) to this file");
  app.add_option("--colors_per_rank", options.colors_per_rank, "AMT mode: colors (tiles) per rank")
      ->capture_default_str();
  app.add_option("--recut", options.recut,
                 "AMT mode with a balancer: auto (move the color boundaries when one color holds over a quarter of a "
                 "rank's share of the particles, then balance) or off")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str();
  app.add_option("--color_loads", options.color_loads,
                 "AMT mode: the loads the balancer sees: measured (each color's update time) or particles (each "
                 "color's particle count times the seconds per particle the ranks measured in the phase)")
      ->check(CLI::IsMember({"measured", "particles"}))
      ->capture_default_str();
  app.add_option("--checkpoint_every", options.checkpoint_every,
                 "AMT mode: checkpoint every N steps into --tessera_checkpoint_dir (0: never)")
      ->capture_default_str();
  app.add_option("--restart", options.restart,
                 "AMT mode: continue from the newest complete checkpoint in DIR, on any rank count");

  return apps::parse_spmd_app_flags(app, argc, argv, options, 1, [&] {
    options.json = report == "json";
    if (distribution.empty()) {
      // Scales with --L, so that any grid size runs with a drifting patch (L 960: 0 239 0 239).
      const std::string last = std::to_string(std::max<std::int64_t>(problem.grid_size / 4 - 1, 0));
      distribution = {"PATCH", "0", last, "0", last};
    }
    problem.distribution = Distribution::parse(distribution);
    require(options.steps >= 1, fmt::format("--steps {}: expected at least 1 step", options.steps));
    require(options.print_every >= 0,
            fmt::format("--print_every {}: expected 0 (never) or a positive interval", options.print_every));
    require(options.colors_per_rank >= 1,
            fmt::format("--colors_per_rank {}: expected at least 1 color per rank", options.colors_per_rank));
    require(options.checkpoint_every >= 0,
            fmt::format("--checkpoint_every {}: expected 0 (never) or a positive interval", options.checkpoint_every));
    if ((options.checkpoint_every > 0 || !options.restart.empty()) && options.mode != "amt") {
      throw InputError("--checkpoint_every and --restart checkpoint the colors, which only --mode=amt has");
    }
    if (options.checkpoint_every > 0 && !apps::has_flag(options.tessera_args, "--tessera_checkpoint_dir")) {
      throw InputError(fmt::format("--checkpoint_every {}: expected --tessera_checkpoint_dir=DIR to say where "
                                   "the checkpoints go", options.checkpoint_every));
    }
    if (options.recut == "auto" && (apps::has_flag(options.tessera_args, "--tessera_lb_split_above") ||
                                    apps::has_flag(options.tessera_args, "--tessera_lb_merge_below"))) {
      throw InputError("--recut auto moves the cuts of whole colors and cannot be combined with "
                       "--tessera_lb_split_above or --tessera_lb_merge_below (expected one of them)");
    }
    if (!options.restart.empty()) {
      options.tessera_args.push_back("--tessera_restart=" + options.restart);
    }
    if (!options.tessera_args.empty() && options.mode != "amt") {
      throw InputError(fmt::format("{}: the --tessera_ flags configure the Tessera runtime, which only "
                                   "--mode=amt starts; add --mode=amt or drop them",
                                   options.tessera_args.front()));
    }
    problem.validate();
  });
}

}  // namespace tessera::pic::driver
