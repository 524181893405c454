#pragma once
// The command line of tessera-octree: the particle set and the leaf size; --scheme,
// --tessera_workers (--workers) and --report are the work-pool apps' shared flags
// (tessera/apps/work_pool_app.hpp).

#include <cstdint>
#include <string_view>

#include <tessera/apps/command_line.hpp>
#include <tessera/apps/work_pool_app.hpp>

#include "tessera/octree/particles.hpp"

namespace tessera::octree::app {

inline constexpr std::string_view kProgram = "tessera-octree";

struct Options : apps::WorkPoolOptions {
  std::int64_t particles = 1'000'000;
  Distribution distribution = Distribution::plummer;
  std::int64_t leaf_size = 16;
  std::uint64_t seed = 1;
};

// Parses argv. On --help prints usage to stdout; on a bad flag or value prints one message
// naming it to stderr and returns exit code 2.
apps::CommandLine<Options> parse_command_line(int argc, char** argv);

}  // namespace tessera::octree::app
