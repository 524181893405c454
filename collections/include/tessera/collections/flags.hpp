#pragma once
/// Runtime flags of the collections layer.
///
///   --tessera_lb_load_clock=wall|cpu   clock for element loads (default wall); cpu measures
///                                      thread CPU time, for runs where ranks share cores
#include <tessera/collections/phase.hpp>
#include <tessera/runtime/flags.hpp>

#include <string>

namespace tessera::collections {

struct CollectionFlags : FlagGroup {
  std::string load_clock = "wall";

  void describe(FlagTable& table) override;
  LoadClock clock() const { return load_clock == "cpu" ? LoadClock::cpu : LoadClock::wall; }
};

}  // namespace tessera::collections
