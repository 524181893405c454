// tessera-octree's flags: the particle set and the leaf size.
#include "options.hpp"

#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <tessera/apps/cli/work_pool.hpp>
#include <tessera/apps/error.hpp>

#include "tessera/octree/partition.hpp"

namespace tessera::octree::app {

apps::CommandLine<Options> parse_command_line(int argc, char** argv) {
  CLI::App cli{"tessera-octree: the octree partitioner of Cederman and Tsigas (seed 002, section 35.4.2): "
               "particles divided into eight octants recursively, each split a task."};
  Options options;
  std::string distribution = "plummer";
  cli.add_option("--particles", options.particles, "Number of particles N, >= 1")->capture_default_str();
  cli.add_option("--distribution", distribution, "uniform (the unit cube) or plummer (a Plummer sphere)")
      ->capture_default_str();
  cli.add_option("--leaf-size", options.leaf_size, "Split octants holding more than this many particles, >= 1")
      ->capture_default_str();
  cli.add_option("--seed", options.seed, "Seed of the particle set")->capture_default_str();
  return apps::parse_work_pool_command_line<Options>(cli, argc, argv, kProgram, [&] {
    apps::for_flag("--particles", [&] { check_particle_count(options.particles); });
    apps::for_flag("--leaf-size", [&] { check_leaf_size(options.leaf_size); });
    const std::optional<Distribution> parsed = parse_distribution(distribution);
    if (!parsed) throw Error(fmt::format("--distribution is '{}': expected uniform or plummer", distribution));
    options.distribution = *parsed;
    return options;
  });
}

}  // namespace tessera::octree::app
