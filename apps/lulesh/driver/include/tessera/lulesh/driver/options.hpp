#pragma once
/// The command line of tessera-lulesh: LULESH 2.0's own options, with their meaning kept, plus the
/// domain count and the options every Tessera app has.
///
///   -s N            elements along each edge of one domain (default 30, as the original)
///   -i N            stop after N cycles (default: run to the problem's stop time)
///   -r N            material regions (default 11)
///   -b N            region balance: weights (r + 1)^N (default 1)
///   -c N            extra EOS cost of the expensive regions (default 1)
///   -p              print the cycle, time and dt of every cycle (rank 0)
///   -q              quiet: no start banner and no verification block
///   --domains N     colors: N domains, N a cube (1, 8, 27, 64, ...), on any rank count
///                   (default 27: a cube larger than the ranks of a node, so balancers can work)
///   --report text|json   json: one JSON object on the last line of standard output
///   --checkpoint_every N checkpoint every N cycles into --tessera_checkpoint_dir (0: never)
///   --restart DIR   continue from the newest complete checkpoint in DIR, on any rank count
///
/// Arguments starting with `--tessera_` belong to the runtime and are kept, in order, in
/// `tessera_args` for tessera::Context. Bad input (each option's range, a --domains that is not a
/// cube, a domain edge too small for its ghost layers) is one message naming the option and its
/// value, and exit 2 on every rank.
#include "tessera/lulesh/problem.hpp"

#include <tessera/apps/spmd_app.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::lulesh {

struct Options {
  Problem problem{30, 3, 11, 1, 1};
  std::int64_t max_cycles = 9'999'999;  ///< -i (the original's default, in effect "to the end")
  bool progress = false;                ///< -p
  bool quiet = false;                   ///< -q
  bool json = false;                    ///< --report json
  int checkpoint_every = 0;             ///< cycles between checkpoints (0: never)
  std::string restart;                  ///< checkpoint directory to continue from
  std::vector<std::string> tessera_args;
};

using ParseResult = apps::ParseResult<Options>;

/// Parses and validates argv (argv[0] the program name). Every rank gets the same result, so on
/// an error every rank exits without waiting for another.
ParseResult parse_options(int argc, const char* const* argv);

/// The cube root of `domains` when it is a positive cube, else 0.
int cube_root(std::int64_t domains);

}  // namespace tessera::lulesh
