// The step loop of tessera-amr (run.hpp says what one step and one stage do).
#include "tessera/amr/driver/run.hpp"

#include "block.hpp"

#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessera::amr {

namespace {

using Totals = std::array<double, kVariables>;

// Each variable's total over the blocks here: values times the cell area of their level.
Totals local_totals(const collections::CollectionProxy<Block>& blocks, const MeshSpec& spec) {
  Totals t{};
  blocks.manager().for_each_local([&](Block& b) {
    const double h = spec.block_side(b.id().level) / static_cast<double>(spec.cells);
    const auto s = b.cells().sums();
    for (std::size_t v = 0; v < t.size(); ++v) t[v] += s[v] * h * h;
  });
  return t;
}

Totals global_totals(Runtime& rt, const collections::CollectionProxy<Block>& blocks, const MeshSpec& spec) {
  return rt.collectives().allreduce(local_totals(blocks, spec), [](Totals a, const Totals& b) {
    for (std::size_t v = 0; v < a.size(); ++v) a[v] += b[v];
    return a;
  });
}

double drift(const Totals& now, const Totals& initial) {
  double worst = 0.0;
  for (std::size_t v = 0; v < now.size(); ++v)
    worst = std::max(worst, std::abs(now[v] - initial[v]) / std::max(std::abs(initial[v]), 1e-300));
  return worst;
}

// Homes by root block: each rank homes a contiguous run of the R x R roots (row by row) and
// everything refined from them, so refinement first loads the ranks whose roots the disks cross.
collections::Mapper<3> root_mapper(std::int64_t roots) {
  return [roots](const Index3D& idx, const Index3D&, int ranks) {
    const std::int64_t ri = idx[1] >> idx[0], rj = idx[2] >> idx[0];
    return static_cast<int>((ri * roots + rj) * ranks / (roots * roots));
  };
}

// One refinement stage on this rank's blocks; the caller drains.
void refine_stage(const collections::CollectionProxy<Block>& blocks, const Plan& plan, int me) {
  auto& manager = blocks.manager();
  const auto local = [&](const BlockId& b) { return manager.local(manager.checked_linear(index_of(b))); };
  for (const BlockId& b : plan.refine) {
    Block* parent = local(b);
    if (parent == nullptr) continue;
    for (int q = 0; q < 4; ++q) blocks[index_of(b.child(q))].insert_at(me, parent->cells().refine(q));
    blocks[index_of(b)].destroy();
  }
  for (const BlockId& p : plan.coarsen) {
    for (int q = 0; q < 4; ++q) {
      const BlockId c = p.child(q);
      Block* child = local(c);
      if (child == nullptr) continue;
      blocks[index_of(p.child(0))].send<&Block::take_quarter>(static_cast<std::int32_t>(q), child->cells().coarse_quarter());
      if (q != 0) blocks[index_of(c)].destroy();  // the first child destroys itself with all four
    }
  }
}

}  // namespace

Result run_amr(const Options& options, Context& ctx) {
  Runtime& rt = ctx.runtime();
  const MeshSpec& spec = options.mesh;
  const std::int64_t side = spec.blocks_per_side(spec.max_level);
  auto blocks = ctx.make_dynamic_collection<Block>(Index3D{spec.max_level + 1, side, side}, root_mapper(spec.roots));
  Tree tree(spec);
  const int me = rt.rank();
  for (const BlockId& b : tree.leaves())
    if (blocks.manager().home_of(blocks.manager().checked_linear(index_of(b))) == me) {
      const double s = spec.block_side(0);
      blocks[index_of(b)].insert(Cells::initial(spec.cells, static_cast<double>(b.i) * s, static_cast<double>(b.j) * s, s));
    }
  ctx.phase_end();

  Result result;
  result.ranks = rt.size();
  result.initial = global_totals(rt, blocks, spec);
  result.max_blocks = static_cast<std::int64_t>(tree.leaves().size());
  rt.collectives().barrier();
  const double start = wall_time();
  bool refined_since_balance = false;
  for (std::int64_t step = 0; step < spec.steps; ++step) {
    if (me == 0) blocks.broadcast_from_this_rank<&Block::advance>(step, static_cast<std::int32_t>(options.passes));
    if (!options.balance_with.empty() && refined_since_balance) ctx.lb().request(options.balance_with);
    refined_since_balance = false;
    ctx.phase_end();
    if (const auto& report = ctx.lb().last_report()) {
      result.balancings += 1;
      result.migrations += report->migrations;
    }
    if ((step + 1) % options.refine_every != 0 || step + 1 >= spec.steps) continue;
    const Plan plan = tree.plan(step + 1);
    refine_stage(blocks, plan, me);
    rt.drain();
    tree.apply(plan);
    result.stages += 1;
    result.refined += static_cast<std::int64_t>(plan.refine.size());
    result.coarsened += static_cast<std::int64_t>(plan.coarsen.size());
    result.max_blocks = std::max(result.max_blocks, static_cast<std::int64_t>(tree.leaves().size()));
    refined_since_balance = !plan.refine.empty() || !plan.coarsen.empty();
    result.drift = std::max(result.drift, drift(global_totals(rt, blocks, spec), result.initial));
  }
  result.seconds = rt.collectives().allreduce(wall_time() - start, op::max{});
  ctx.phase_end();  // the last insertions and destructions counted, nothing held

  result.total = global_totals(rt, blocks, spec);
  result.drift = std::max(result.drift, drift(result.total, result.initial));
  result.conserved = result.drift <= 1e-9;
  std::uint64_t fingerprint = 0;
  blocks.manager().for_each_local([&](Block& b) {
    const BlockId id = b.id();
    fingerprint ^= b.cells().hash() * 0x9e3779b97f4a7c15ull ^ static_cast<std::uint64_t>((id.level * side + id.i) * side + id.j);
  });
  result.fingerprint = rt.collectives().allreduce(fingerprint, [](std::uint64_t a, const std::uint64_t& b) { return a ^ b; });
  const auto& m = blocks.membership();
  const std::array<std::int64_t, 4> counts = rt.collectives().allreduce(
      std::array<std::int64_t, 4>{static_cast<std::int64_t>(blocks.manager().local_count()), m.inserted, m.destroyed,
                                  m.dead_letters},
      [](std::array<std::int64_t, 4> a, const std::array<std::int64_t, 4>& b) {
        for (std::size_t k = 0; k < a.size(); ++k) a[k] += b[k];
        return a;
      });
  result.blocks = counts[0];
  result.inserted = counts[1];
  result.destroyed = counts[2];
  result.dead_letters = counts[3];
  if (result.blocks != static_cast<std::int64_t>(tree.leaves().size()))
    throw RunError(fmt::format("{} blocks live at the end, but the mesh has {} leaves", result.blocks, tree.leaves().size()));
  blocks.destroy();
  return result;
}

}  // namespace tessera::amr
