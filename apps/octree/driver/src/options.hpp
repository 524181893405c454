#pragma once
// The command line of tessera-octree.

#include <cstddef>
#include <cstdint>
#include <optional>

#include <tessera/apps/work_pool_flags.hpp>

#include "tessera/octree/particles.hpp"

namespace tessera::octree::app {

struct Options {
  std::int64_t particles = 1'000'000;
  Distribution distribution = Distribution::plummer;
  std::int64_t leaf_size = 16;
  std::uint64_t seed = 1;
  apps::WorkPoolChoice pool;  // --scheme and --workers
  bool json = false;
};

struct CommandLine {
  std::optional<Options> options;  // empty: nothing to run (help printed, or an error)
  int exit_code = 0;
};

// Parses argv. On --help prints usage to stdout; on a bad flag or value prints one message
// naming it to stderr and returns exit code 2.
CommandLine parse_command_line(int argc, char** argv);

}  // namespace tessera::octree::app
