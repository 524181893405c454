#include "tessera/amr/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace tessera::amr {

Disk disk_at(const MeshSpec& spec, std::int64_t k, std::int64_t step) {
  // Centres spread over x in [0.1, 0.3]; each sweeps y once over the run, out of phase.
  const double spread = spec.objects > 1 ? static_cast<double>(k) / static_cast<double>(spec.objects - 1) : 0.5;
  const double phase = static_cast<double>(step) / static_cast<double>(std::max<std::int64_t>(spec.steps, 1));
  const double y = 0.5 + 0.35 * std::sin(2.0 * std::numbers::pi * (phase + static_cast<double>(k) / 3.0));
  return Disk{0.1 + 0.2 * spread, y, 0.09};
}

std::int64_t target_level(const MeshSpec& spec, const BlockId& b, std::int64_t step) {
  const double side = spec.block_side(b.level);
  const double x0 = static_cast<double>(b.i) * side, y0 = static_cast<double>(b.j) * side;
  for (std::int64_t k = 0; k < spec.objects; ++k) {
    const Disk d = disk_at(spec, k, step);
    // The boundary circle crosses the square when the nearest point is inside the disk and the
    // farthest is outside.
    const double nx = std::clamp(d.x, x0, x0 + side) - d.x, ny = std::clamp(d.y, y0, y0 + side) - d.y;
    const double fx = std::max(std::abs(d.x - x0), std::abs(d.x - x0 - side));
    const double fy = std::max(std::abs(d.y - y0), std::abs(d.y - y0 - side));
    if (nx * nx + ny * ny <= d.r * d.r && fx * fx + fy * fy >= d.r * d.r) return spec.max_level;
  }
  return 0;
}

Tree::Tree(const MeshSpec& spec) : spec_(spec) {
  for (std::int64_t i = 0; i < spec.roots; ++i)
    for (std::int64_t j = 0; j < spec.roots; ++j) leaves_.insert({0, i, j});
}

Plan Tree::plan(std::int64_t step) const {
  Plan plan;
  std::map<BlockId, int> coarse_votes;  // parent -> children that are leaves above their target
  for (const BlockId& b : leaves_) {
    const std::int64_t target = target_level(spec_, b, step);
    if (b.level < target) plan.refine.push_back(b);
    else if (b.level > 0 && target < b.level) coarse_votes[b.parent()] += 1;
  }
  for (const auto& [parent, votes] : coarse_votes)
    if (votes == 4) plan.coarsen.push_back(parent);
  return plan;
}

void Tree::apply(const Plan& plan) {
  for (const BlockId& b : plan.refine) {
    leaves_.erase(b);
    for (int q = 0; q < 4; ++q) leaves_.insert(b.child(q));
  }
  for (const BlockId& p : plan.coarsen) {
    for (int q = 0; q < 4; ++q) leaves_.erase(p.child(q));
    leaves_.insert(p);
  }
}

}  // namespace tessera::amr
