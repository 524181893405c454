/// Problem::validate: the original's options checked before any domain is built, with messages
/// that name the option letter and its value.
#include "tessera/lulesh/problem.hpp"

#include <fmt/format.h>

namespace tessera::lulesh {

void Problem::validate() const {
  if (domains_per_side < 1)
    throw InputError(fmt::format("--domains: expected at least 1 domain per side of the cube, got {}",
                                 domains_per_side));
  if (edge < min_edge()) {
    if (min_edge() == 1)
      throw InputError(fmt::format("-s {}: expected at least 1 element per domain edge", edge));
    throw InputError(fmt::format("-s {}: expected at least {} elements per domain edge with {} domains (the ghost "
                                 "layers of opposite faces would overlap)",
                                 edge, min_edge(), domains()));
  }
  if (regions < 1) throw InputError(fmt::format("-r {}: expected at least 1 region", regions));
  if (balance < 0) throw InputError(fmt::format("-b {}: expected 0 or more", balance));
  if (cost < 0) throw InputError(fmt::format("-c {}: expected 0 or more", cost));
}

}  // namespace tessera::lulesh
