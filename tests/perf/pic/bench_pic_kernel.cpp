// tessera-bench-pic-kernel: how fast the PIC mover runs, and what splitting the grid into many
// tiles (colors) costs at the kernel level, before any runtime overhead.
//
// Runs the same problem (SINUSOIDAL by default: balanced, every cell populated) on one tile and on
// a tiles_x x tiles_y grid of tiles in one process, and reports thread CPU time per particle step:
//   ns_per_particle_step        one tile, no departures
//   ns_per_particle_step_tiled  many tiles, including sorting out departures (handing them to
//                               the neighbour tiles is not timed, as a runtime would do it)
//   tiling_overhead_ratio       the second over the first
// Both runs are verified; the exit code is 1 if either fails.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <tessera/runtime/error.hpp>
#include "tessera/pic/serial_run.hpp"

namespace {

using namespace tessera::pic;

struct Measurement {
  double ns_per_particle_step = 0.0;
  bool validated = false;
  std::uint64_t particles = 0;
};

Measurement measure(const Problem& problem, const TileGrid& grid, std::int64_t steps) {
  SerialRun run(problem, grid);
  double cpu_s = 0.0;
  for (std::int64_t s = 0; s < steps; ++s) {
    cpu_s += run.step().cpu_s;
  }
  Measurement m;
  m.particles = run.placed();
  m.validated = run.verify().passed(run.placed());
  m.ns_per_particle_step = 1e9 * cpu_s / static_cast<double>(steps) / static_cast<double>(run.placed());
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  Problem problem;
  problem.particles = 1000000;
  problem.distribution = Distribution::sinusoidal();
  std::int64_t steps = 20;
  std::int64_t tiles_x = 8;
  std::int64_t tiles_y = 6;
  std::string report = "text";

  CLI::App app{"tessera-bench-pic-kernel: PIC mover throughput on one tile and on many tiles"};
  app.add_option("-L,--L", problem.grid_size, "cells per side")->capture_default_str();
  app.add_option("-n,--n", problem.particles, "requested particles")->capture_default_str();
  app.add_option("--steps", steps, "steps per run")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--tiles_x", tiles_x, "tiles across in the tiled run")->capture_default_str();
  app.add_option("--tiles_y", tiles_y, "tiles up in the tiled run")->capture_default_str();
  app.add_option("--report", report, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    problem.validate();
    const Measurement one = measure(problem, TileGrid(problem.grid_size, 1, 1), steps);
    const Measurement many = measure(problem, TileGrid(problem.grid_size, tiles_x, tiles_y), steps);
    const bool validated = one.validated && many.validated;
    const double ratio = many.ns_per_particle_step / one.ns_per_particle_step;
    if (report == "json") {
      nlohmann::ordered_json j;
      j["benchmark"] = "pic_kernel";
      j["L"] = problem.grid_size;
      j["particles"] = one.particles;
      j["steps"] = steps;
      j["tiles"] = tiles_x * tiles_y;
      j["ns_per_particle_step"] = one.ns_per_particle_step;
      j["ns_per_particle_step_tiled"] = many.ns_per_particle_step;
      j["tiling_overhead_ratio"] = ratio;
      j["validated"] = validated;
      fmt::print("{}\n", j.dump());
    } else {
      fmt::print("PIC mover, {} particles on L = {}, {} steps (thread CPU time)\n", one.particles,
                 problem.grid_size, steps);
      fmt::print("  1 tile          {:8.2f} ns per particle step\n", one.ns_per_particle_step);
      fmt::print("  {:>3} tiles       {:8.2f} ns per particle step (x {:.3f})\n", tiles_x * tiles_y,
                 many.ns_per_particle_step, ratio);
      fmt::print("  validation      {}\n", validated ? "passed" : "FAILED");
    }
    return validated ? 0 : 1;
  } catch (const tessera::InputError& e) {
    fmt::print(stderr, "tessera-bench-pic-kernel: {}\n", e.what());
    return 1;
  }
}
