#include "tessera/lb/simple_lbs.hpp"

#include <random>

namespace tessera::lb {

namespace {

// Moves every migratable object of every hosted rank to choose(rank, object), if that differs.
template <class Choose>
Plan move_each(comm::Backend& backend, std::span<const StrategyInput> hosted, Choose&& choose) {
  check_hosted_inputs(backend, hosted);
  Plan plan;
  std::size_t i = 0;
  backend.for_each_local([&](Rank r) {
    for (const auto& object : hosted[i].objects) {
      if (!object.migratable) continue;
      const Rank to = choose(r, object);
      if (to != r) plan.migrations.push_back(Migration{object.id, r, to});
    }
    ++i;
  });
  plan.canonicalize();
  return plan;
}

}  // namespace

std::vector<KeySpec> RandomLB::keys() {
  return {integer_key("seed", "0", "seed of the per-rank generators", 0, 9.0e18)};
}

RandomLB RandomLB::from_args(const Args& args) {
  return RandomLB(static_cast<std::uint64_t>(args.integer("seed")));
}

Plan RandomLB::run(comm::Backend& backend, std::span<const StrategyInput> hosted) {
  const Rank ranks = backend.size();
  std::mt19937_64 generator;
  Rank seeded_for = no_rank;
  std::uniform_int_distribution<Rank> pick(0, ranks - 1);
  return move_each(backend, hosted, [&](Rank r, const LbObject&) {
    if (seeded_for != r) {
      std::seed_seq seq{static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32),
                        static_cast<std::uint32_t>(r)};
      generator.seed(seq);
      pick.reset();
      seeded_for = r;
    }
    return pick(generator);
  });
}

Plan RotateLB::run(comm::Backend& backend, std::span<const StrategyInput> hosted) {
  const Rank ranks = backend.size();
  return move_each(backend, hosted, [&](Rank r, const LbObject&) { return static_cast<Rank>((r + 1) % ranks); });
}

}  // namespace tessera::lb
