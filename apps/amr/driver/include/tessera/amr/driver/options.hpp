#pragma once
/// The command line of tessera-amr (README.md has the table with defaults).
///
///   --roots R          level-0 blocks per side (1 to 64)
///   --cells B          cells per block side, even (2 to 256)
///   --levels L         refinement levels above level 0 (0 to 8)
///   --objects N        moving disks that refinement follows (0 to 16)
///   --steps S          time steps (1 to 10^6); the disks make one sweep in them
///   --refine_every K   steps between refinement stages (1 to 10^6)
///   --passes P         diffusion passes per block and step: the work of a block (1 to 1000)
///   --report text|json
///
/// `--tessera_` flags go to tessera::Context unparsed (a balancer: --tessera_lb_name, and its
/// interval). Errors name the flag, its value and what was expected.
#include "tessera/amr/mesh.hpp"

#include <tessera/apps/spmd_app.hpp>

#include <string>
#include <vector>

namespace tessera::amr {

struct Options {
  MeshSpec mesh;
  std::int64_t refine_every = 5;
  int passes = 4;
  bool json = false;
  /// Set by programs, not by a flag: the strategy requested from code after every refinement
  /// stage (tessera-bench-dynamic's balanced run); empty: the --tessera_lb flags decide.
  std::string balance_with;
  std::vector<std::string> tessera_args;
};

using ParseResult = apps::ParseResult<Options>;

ParseResult parse_options(int argc, const char* const* argv);

}  // namespace tessera::amr
