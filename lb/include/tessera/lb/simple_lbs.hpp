#pragma once
// Two strategies that ignore loads, for exercising migration end to end:
//   RandomLB: every migratable object goes to a uniformly random rank (seeded, so a run repeats;
//             rank r draws from its own generator seeded with (seed, r), hence the plan does not
//             depend on the backend or on how ranks are spread over processes);
//   RotateLB: every migratable object goes to rank (r + 1) mod P.
// Neither communicates: each rank decides about its own objects.

#include <cstdint>

#include "tessera/lb/args.hpp"
#include "tessera/lb/strategy.hpp"

namespace tessera::lb {

class RandomLB final : public Strategy {
 public:
  explicit RandomLB(std::uint64_t seed = 0) : seed_(seed) {}
  static std::vector<KeySpec> keys();
  static RandomLB from_args(const Args& args);

  std::string_view name() const override { return "RandomLB"; }
  Plan run(comm::Backend& backend, std::span<const StrategyInput> hosted) override;

 private:
  std::uint64_t seed_;
};

class RotateLB final : public Strategy {
 public:
  static std::vector<KeySpec> keys() { return {}; }

  std::string_view name() const override { return "RotateLB"; }
  Plan run(comm::Backend& backend, std::span<const StrategyInput> hosted) override;
};

}  // namespace tessera::lb
