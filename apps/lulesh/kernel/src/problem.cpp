/// Problem::validate: the original's options checked before any domain is built, with messages
/// that name the option letter and its value.
#include "tessera/lulesh/problem.hpp"

#include <fmt/format.h>

namespace tessera::lulesh {

void Problem::validate() const {
  if (domains_per_side < 1)
    throw InputError(fmt::format("--domains: expected at least 1 domain per side of the cube, got {}",
                                 domains_per_side));
  if (edge < 1) throw InputError(fmt::format("-s {}: expected at least 1 element per domain edge", edge));
  if (edge > max_edge())
    throw InputError(fmt::format("-s {}: expected at most {} elements per domain edge (8 * s^3 node references "
                                 "must fit the 32-bit indices the original uses)",
                                 edge, max_edge()));
  if (edge < min_edge()) {
    throw InputError(fmt::format("-s {}: expected at least {} elements per domain edge with {} domains (the ghost "
                                 "layers of opposite faces would overlap)",
                                 edge, min_edge(), domains()));
  }
  if (regions < 1) throw InputError(fmt::format("-r {}: expected at least 1 region", regions));
  if (balance < 0) throw InputError(fmt::format("-b {}: expected 0 or more (region weights (r + 1)^b)", balance));
  if (cost < 0) throw InputError(fmt::format("-c {}: expected 0 or more (extra EOS evaluations)", cost));
}

}  // namespace tessera::lulesh
