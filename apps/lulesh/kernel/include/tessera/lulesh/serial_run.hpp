#pragma once
/// Every domain of a problem in one process, exchanging in memory: the reference that the
/// distributed runs are held to, bit for bit, and the kernel's own test against LULESH's
/// published answers.
#include "tessera/lulesh/domain.hpp"

#include <cstdint>

namespace tessera::lulesh {

struct SerialResult {
  std::int64_t cycles = 0;
  Real origin_energy = 0;     ///< domain 0's origin_energy()
  Symmetry symmetry;          ///< domain 0's symmetry()
  Real total_energy = 0;      ///< sum over domains, in domain order, of total_energy()
  Fault fault = Fault::none;  ///< the first fault any domain raised (the run stops at it)
};

/// Runs `problem` for at most `max_cycles` cycles (or to its stop time) with every domain in this
/// process, each cycle exactly as domain.hpp lays it out.
SerialResult run_in_process(const Problem& problem, std::int64_t max_cycles);

}  // namespace tessera::lulesh
