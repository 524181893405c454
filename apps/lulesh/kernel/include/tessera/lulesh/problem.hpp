#pragma once
/// The problem tessera-lulesh solves: LULESH 2.0's Sedov blast on a cube of hexahedra, cut into a
/// cube of domains (LLNL-TR-641973, "Hydrodynamics Challenge Problem", section 2 and appendix A).
///
/// The global mesh has `edge * domains_per_side` elements along each axis. Domain number
/// `plane * p * p + row * p + col` (p = domains_per_side) plays the part the MPI rank plays in the
/// original: it seeds the region draw and rotates the regions, so 27 domains here carry the work
/// 27 ranks of the original carry. LULESH's published answers depend on the global edge alone
/// (edge 30: 932 cycles, final origin energy 2.025075e+05; edge 10: 231 cycles, 2.720531e+04).
#include <tessera/runtime/error.hpp>

#include <cstdint>

namespace tessera::lulesh {

/// LULESH computes in double precision; the kernel names it as the original does.
using Real = double;

/// The original's command-line options that shape the problem (its `-s`, `-r`, `-b`, `-c`), plus
/// the domain count the original takes from the number of MPI ranks.
struct Problem {
  int edge = 30;              ///< -s: elements along each edge of one domain
  int domains_per_side = 1;   ///< cube root of the domain count (--domains)
  int regions = 11;           ///< -r: material regions
  int balance = 1;            ///< -b: region weights are (r + 1)^balance
  int cost = 1;               ///< -c: extra EOS evaluations of the expensive regions

  /// Domains in the cube: domains_per_side^3.
  std::int64_t domains() const {
    return std::int64_t{domains_per_side} * domains_per_side * domains_per_side;
  }
  /// Elements along each edge of the whole mesh.
  std::int64_t global_edge() const { return std::int64_t{edge} * domains_per_side; }

  /// Throws InputError naming the first option outside its range: `-s` below 1, below the
  /// smallest edge the ghost layers allow (min_edge()) or above max_edge(), `-r` below 1, a negative `-b` or `-c`, a
  /// domains_per_side below 1.
  void validate() const;

  /// The smallest `-s` for this domain count: 1 for a single domain, 2 with neighbours (below it
  /// a domain's opposite faces share their nodes and the monotonic-Q ghosts of both sides would
  /// land in the same elements).
  int min_edge() const { return domains_per_side == 1 ? 1 : 2; }
  /// The largest `-s`: 8 * edge^3 node references index with 32 bits, as in the original.
  static constexpr int max_edge() { return 640; }
};

}  // namespace tessera::lulesh
