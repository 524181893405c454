#pragma once
// Strategy inputs and expected moves written out by hand, shared by the LB layer's tests.
#include "tessera/lb/model.hpp"

#include <cstdint>
#include <set>
#include <vector>

namespace tessera::lb::testing {

// ranks[r] lists the loads (seconds) of rank r's objects; ids count up from 1 in that order.
inline std::vector<StrategyInput> make_ranks(const std::vector<std::vector<double>>& loads) {
  std::vector<StrategyInput> ranks(loads.size());
  std::uint64_t id = 1;
  for (std::size_t r = 0; r < loads.size(); ++r) {
    ranks[r].rank = static_cast<Rank>(r);
    for (double l : loads[r]) ranks[r].objects.push_back(LbObject{ObjectId::packed(id++), l, true, {}});
  }
  return ranks;
}

// The migration of object `id` (a packed id, as make_ranks numbers them) from `from` to `to`.
inline Migration move(std::uint64_t id, Rank from, Rank to) { return Migration{ObjectId::packed(id), from, to}; }

// Marks `leaving` as leaving an elastic shrink and the staying count in every input (evacuate.hpp).
inline void mark_leaving(std::vector<StrategyInput>& ranks, const std::set<Rank>& leaving) {
  for (auto& r : ranks) {
    r.leaving = leaving.contains(r.rank);
    r.staying = static_cast<std::int64_t>(ranks.size() - leaving.size());
  }
}

}  // namespace tessera::lb::testing
