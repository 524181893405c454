#include "options.hpp"

#include <iostream>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>
#include <tessera/apps/cli/work_pool.hpp>
#include <fmt/format.h>

#include "tessera/octree/partition.hpp"

namespace tessera::octree::app {

CommandLine parse_command_line(int argc, char** argv) {
  CLI::App cli{"tessera-octree: the octree partitioner of Cederman and Tsigas (seed 002, section 35.4.2): "
               "particles divided into eight octants recursively, each split a task."};
  Options options;
  std::string distribution = "plummer";
  apps::WorkPoolFlags pool;
  std::string report = "text";
  cli.add_option("--particles", options.particles, "Number of particles N, >= 1")->capture_default_str();
  cli.add_option("--distribution", distribution, "uniform (the unit cube) or plummer (a Plummer sphere)")
      ->capture_default_str();
  cli.add_option("--leaf-size", options.leaf_size, "Split octants holding more than this many particles, >= 1")
      ->capture_default_str();
  cli.add_option("--seed", options.seed, "Seed of the particle set")->capture_default_str();
  apps::add_work_pool_flags(cli, pool);
  cli.add_option("--report", report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return {std::nullopt, cli.exit(error) == 0 ? 0 : 2};
  }
  try {
    check_particle_count(options.particles);
    check_leaf_size(options.leaf_size);
    const std::optional<Distribution> parsed = parse_distribution(distribution);
    if (!parsed) {
      throw std::invalid_argument(fmt::format("--distribution is '{}': expected uniform or plummer", distribution));
    }
    options.distribution = *parsed;
    options.pool = pool.choice();
    options.json = report == "json";
    return {options, 0};
  } catch (const std::exception& error) {
    std::cerr << "tessera-octree: " << error.what() << "\n";
    return {std::nullopt, 2};
  }
}

}  // namespace tessera::octree::app
