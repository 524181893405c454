// tessera-amr's command line: CLI11 for the application's flags, validated before the runtime
// starts; the --tessera_ flags pass through untouched to tessera::Context.
#include "tessera/amr/driver/options.hpp"

#include <tessera/apps/cli/spmd_app.hpp>
#include <tessera/runtime/error.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace tessera::amr {

namespace {

void in_range(const char* flag, std::int64_t value, std::int64_t low, std::int64_t high) {
  if (value < low || value > high) throw Error(fmt::format("{} {}: expected {} to {}", flag, value, low, high));
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  std::string report = "text";
  std::int64_t passes = o.passes;
  CLI::App app{"tessera-amr: block-structured refinement around moving disks, blocks inserted and destroyed as they "
               "move, balanced by any strategy",
               "tessera-amr"};
  app.add_option("--roots", o.mesh.roots, "level-0 blocks per side")->capture_default_str();
  app.add_option("--cells", o.mesh.cells, "cells per block side (even)")->capture_default_str();
  app.add_option("--levels", o.mesh.max_level, "refinement levels above level 0")->capture_default_str();
  app.add_option("--objects", o.mesh.objects, "moving disks that refinement follows")->capture_default_str();
  app.add_option("--steps", o.mesh.steps, "time steps; the disks make one sweep in them")->capture_default_str();
  app.add_option("--refine_every", o.refine_every, "steps between refinement stages")->capture_default_str();
  app.add_option("--passes", passes, "diffusion passes per block and step (a block's work)")->capture_default_str();
  app.add_option("--report", report, "text, or json: one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  return apps::parse_spmd_app_flags(app, argc, argv, o, 2, [&] {
    in_range("--roots", o.mesh.roots, 1, 64);
    in_range("--cells", o.mesh.cells, 2, 256);
    if (o.mesh.cells % 2 != 0) throw Error(fmt::format("--cells {}: expected an even number (blocks coarsen 2 x 2 cells)", o.mesh.cells));
    in_range("--levels", o.mesh.max_level, 0, 8);
    in_range("--objects", o.mesh.objects, 0, 16);
    in_range("--steps", o.mesh.steps, 1, 1'000'000);
    in_range("--refine_every", o.refine_every, 1, 1'000'000);
    in_range("--passes", passes, 1, 1000);
    o.passes = static_cast<int>(passes);
    o.json = report == "json";
  });
}

}  // namespace tessera::amr
