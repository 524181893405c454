// tessera-octree: partitions a seeded particle set into an octree and prints its leaves, depth
// and a checksum of the leaf contents. The work-pool apps' main (tessera/apps/work_pool_app.hpp)
// parses, runs the partitioning sequentially or as tasks on the chosen work-pool, and prints
// these lines around its own.

#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <tessera/apps/work_pool_app.hpp>

#include "options.hpp"
#include "tessera/octree/partition.hpp"

namespace {
using namespace tessera::octree;
std::string checksum(const OctreeResult& tree) { return fmt::format("{:016x}", tree.checksum); }
}  // namespace

int main(int argc, char** argv) {
  using app::Options;
  return tessera::apps::run_work_pool_app<Options, OctreeResult>(
      argc, argv,
      {.name = app::kProgram,
       .parse = app::parse_command_line,
       .run =
           [](const Options& o) {
             // Generating the particles is set-up: the time is the partitioning's alone.
             std::vector<Particle> particles = make_particles(o.particles, o.distribution, o.seed);
             return tessera::apps::run_kernel(
                 o.pool, [&] { return partition_sequential(particles, o.leaf_size); },
                 [&](tessera::collections::steal::WorkPoolScheme scheme, std::size_t workers) {
                   const TaskOctreeResult result = partition_tasks(particles, o.leaf_size, scheme, workers);
                   return std::pair{result.tree, result.run};
                 });
           },
       .print_input =
           [](std::ostream& out, const Options& o) {
             out << fmt::format("particles  {} ({}, seed {})\nleaf size  {}\n", o.particles,
                                to_string(o.distribution), o.seed, o.leaf_size);
           },
       .print_answer =
           [](std::ostream& out, const Options&, const OctreeResult& tree) {
             out << fmt::format("leaves     {}\ndepth      {}\nchecksum   {}\nsplits     {}\n", tree.leaves,
                                tree.depth, checksum(tree), tree.splits);
           },
       .json = [](const Options& o, const OctreeResult& tree) -> nlohmann::ordered_json {
         return {{"particles", o.particles}, {"distribution", to_string(o.distribution)},
                 {"leaf_size", o.leaf_size}, {"seed", o.seed},
                 {"leaves", tree.leaves},     {"depth", tree.depth},
                 {"checksum", checksum(tree)}, {"tasks", tree.splits}};
       },
       .check =
           [](const Options& o, const OctreeResult& tree) {
             if (tree.particles_in_leaves != o.particles) {
               throw std::logic_error(fmt::format("{} particles ended in leaves, expected {}",
                                                  tree.particles_in_leaves, o.particles));
             }
           }});
}
