#include <tessera/collections/location.hpp>

namespace tessera::collections {

bool LocationTable::learn(std::uint64_t element, int rank, std::uint64_t version) {
  auto [it, inserted] = known_.try_emplace(element, Fact{rank, version});
  if (inserted) return true;
  // Equal versions carry the same rank; only a strictly newer migration changes the answer.
  if (version <= it->second.version) return false;
  it->second = Fact{rank, version};
  return true;
}

}  // namespace tessera::collections
