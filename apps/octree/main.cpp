// tessera-octree: partitions a seeded particle set into an octree and prints its leaves, depth
// and a checksum of the leaf contents.

#include <chrono>
#include <exception>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "options.hpp"
#include "tessera/octree/partition.hpp"

namespace {

using namespace tessera::octree;

struct Report {
  OctreeResult tree;
  double seconds = 0;           // partitioning only, not generating the particles
  std::int64_t peak_tasks = 0;  // static and dynamic only
};

Report run(const app::Options& options) {
  std::vector<Particle> particles = make_particles(options.particles, options.distribution, options.seed);
  Report report;
  if (!options.pool.scheme) {
    const auto start = std::chrono::steady_clock::now();
    report.tree = partition_sequential(particles, options.leaf_size);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
  }
  const TaskOctreeResult result = partition_tasks(particles, options.leaf_size, *options.pool.scheme, options.pool.workers);
  report.tree = result.tree;
  report.seconds = result.run.wall_seconds;
  report.peak_tasks = result.run.peak_tasks;
  return report;
}

void print(const app::Options& options, const Report& report) {
  const char* scheme = options.pool.name();
  const std::string checksum = fmt::format("{:016x}", report.tree.checksum);
  std::cout << fmt::format("particles  {} ({}, seed {})\nleaf size  {}\n", options.particles,
                           to_string(options.distribution), options.seed, options.leaf_size);
  std::cout << fmt::format("scheme     {} ({} worker{})\n", scheme, options.pool.workers, options.pool.workers == 1 ? "" : "s");
  std::cout << fmt::format("leaves     {}\ndepth      {}\nchecksum   {}\nsplits     {}\n", report.tree.leaves,
                           report.tree.depth, checksum, report.tree.splits);
  if (options.pool.scheme) std::cout << fmt::format("peak tasks {}\n", report.peak_tasks);
  std::cout << fmt::format("seconds    {:.4f}\n", report.seconds);
  if (options.json) {
    const nlohmann::ordered_json json = {
        {"particles", options.particles}, {"distribution", to_string(options.distribution)},
        {"leaf_size", options.leaf_size}, {"seed", options.seed},
        {"leaves", report.tree.leaves},   {"depth", report.tree.depth},
        {"checksum", checksum},           {"tasks", report.tree.splits},
        {"scheme", scheme},               {"workers", options.pool.workers},
        {"seconds", report.seconds},
    };
    std::cout << json.dump() << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  const app::CommandLine command_line = app::parse_command_line(argc, argv);
  if (!command_line.options) return command_line.exit_code;
  try {
    const Report report = run(*command_line.options);
    if (report.tree.particles_in_leaves != command_line.options->particles) {
      throw std::logic_error(fmt::format("{} particles ended in leaves, expected {}", report.tree.particles_in_leaves,
                                         command_line.options->particles));
    }
    print(*command_line.options, report);
  } catch (const std::exception& error) {
    std::cerr << "tessera-octree: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
