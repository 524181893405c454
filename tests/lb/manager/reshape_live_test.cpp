// Split and merge at a live balancing (--tessera_lb_split_above=0.5, --tessera_lb_merge_below=0.5)
// on 1, 2 and 4 ranks: a heavy strip of cells is split, along its cells and by its pieces' mass,
// until every piece is at most half the average rank load; later its light pieces merge back
// with the sibling on the same rank. Exact counts, indices, masses and the balance reached.
#include <tessera/lb/reshape.hpp>
#include <tessera/tessera.hpp>

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace tessera::collections;
using tessera::op::sum;

// Pieces form a binary tree over a sparse 1-D index space: the children of index n are
// 2n + 64 and 2n + 65, so the first 64 indices are roots and every other index has one parent.
constexpr std::int64_t kRoots = 8;
std::int64_t parent_of(std::int64_t n) { return n < 64 ? -1 : (n - 64) / 2; }

// A strip of cells with a mass each; its load is its mass.
struct Strip : Element<Strip, 1> {
  std::vector<double> cells;
  Strip() = default;
  Strip(const Index1D&, std::vector<double> c) : cells(std::move(c)) {}
  double mass() const { return std::accumulate(cells.begin(), cells.end(), 0.0); }
  void scale(double factor) {
    for (double& c : cells) c *= factor;
  }

  std::vector<std::pair<Index1D, Strip>> split() {
    std::vector<std::pair<Index1D, Strip>> halves;
    if (cells.size() < 2) return halves;
    const auto mid = cells.begin() + static_cast<std::ptrdiff_t>(cells.size() / 2);
    const std::int64_t n = piece_index();
    halves.emplace_back(Index1D{2 * n + 64}, Strip({}, {cells.begin(), mid}));
    halves.emplace_back(Index1D{2 * n + 65}, Strip({}, {mid, cells.end()}));
    halves[0].second.at_ = 2 * n + 64;
    halves[1].second.at_ = 2 * n + 65;
    return halves;
  }
  double split_weight() const { return mass(); }
  std::optional<Index1D> merge_into() const {
    const std::int64_t p = parent_of(index()[0]);
    return p < 0 ? std::nullopt : std::optional<Index1D>(Index1D{p});
  }
  static std::optional<Strip> merge(const Index1D& into, std::span<Strip* const> siblings) {
    if (siblings.size() != 2) return std::nullopt;  // both halves, or not yet
    Strip whole({}, siblings[0]->cells);
    whole.cells.insert(whole.cells.end(), siblings[1]->cells.begin(), siblings[1]->cells.end());
    whole.at_ = into[0];
    return whole;
  }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(cells, at_);
  }

  // A piece being split further is a value, not yet an element: it keeps its own index here.
  std::int64_t at_ = -1;
  std::int64_t piece_index() const { return at_ >= 0 ? at_ : index()[0]; }
};

tessera::Context* context = nullptr;

struct Totals {
  std::int64_t count = 0;
  double mass = 0.0;
};
Totals totals(const CollectionProxy<Strip>& strips) {
  auto& rt = context->runtime();
  double mass = 0.0;
  strips.manager().for_each_local([&](Strip& s) { mass += s.mass(); });
  return {rt.collectives().allreduce(static_cast<std::int64_t>(strips.manager().local_count()), sum{}),
          rt.collectives().allreduce(mass, sum{})};
}

TEST(LbManagerReshape, SplitsTheHeavyStripThenMergesItsLightPieces) {
  auto& ctx = *context;
  auto& rt = ctx.runtime();
  const int p = rt.size();
  auto strips = make_dynamic_collection<Strip>(rt, Index1D{1 << 20});
  // Eight roots of 64 cells; root 0 weighs 8 per cell, the others 1.
  if (rt.rank() == 0)
    for (std::int64_t k = 0; k < kRoots; ++k) strips[{k}].insert(std::vector<double>(64, k == 0 ? 8.0 : 1.0));
  ctx.phase_end();
  ctx.lb().set_load_model([&](const tessera::lb::LbObject& o, tessera::lb::PhaseId) {
    const Strip* s = o.migratable ? strips.manager().local(o.id.value) : nullptr;
    return s != nullptr ? s->mass() : 0.0;
  });
  // What the split must do, by the rule of lb/reshape.hpp: 512 + 7 x 64 over p ranks.
  const double total = 512.0 + 7 * 64.0;
  const auto t = tessera::lb::reshape_thresholds({0.5, 0.5}, total, p, total, kRoots);
  const int depth = tessera::lb::split_depth(512.0, t.split_load);
  ASSERT_GE(depth, 1);
  ctx.lb().request("GreedyLB");
  ctx.phase_end();
  const auto& first = *ctx.lb().last_report();
  EXPECT_EQ(first.splits, 1);
  EXPECT_EQ(first.merges, 0);
  const std::int64_t pieces = std::int64_t{1} << depth;
  const Totals after_split = totals(strips);
  EXPECT_EQ(after_split.count, kRoots - 1 + pieces);
  EXPECT_DOUBLE_EQ(after_split.mass, total);
  // The pieces are the tree's nodes `depth` levels below root 0, each of 64/2^depth cells.
  std::int64_t right = 0;
  strips.manager().for_each_local([&](Strip& s) {
    std::int64_t n = s.index()[0], up = 0;
    while (parent_of(n) >= 0) n = parent_of(n), ++up;
    if (n != 0) return;
    right += up == depth && s.cells.size() == static_cast<std::size_t>(64 / pieces) && s.mass() == 512.0 / pieces;
  });
  EXPECT_EQ(rt.collectives().allreduce(right, sum{}), pieces);
  // GreedyLB then balanced pieces and roots: the predicted maximum is the best of whole pieces.
  EXPECT_LE(first.after.max, first.before.max);

  // The pieces lose 63/64 of their mass: each pair of siblings on one rank merges back when
  // light (below half the average element load), one level per balancing; and the roots may now
  // be above the split load, which the same rule decides.
  strips.manager().for_each_local([](Strip& s) {
    if (s.index()[0] >= 64) s.scale(1.0 / 64.0);
  });
  std::int64_t pairs = 0;
  strips.manager().for_each_local([&](Strip& s) {
    const std::int64_t n = s.index()[0];
    if (n >= 64 && (n - 64) % 2 == 0 && strips.manager().local(static_cast<std::uint64_t>(n + 1)) != nullptr) ++pairs;
  });
  pairs = rt.collectives().allreduce(pairs, sum{});
  const double total2 = 7 * 64.0 + 512.0 / 64.0;
  const auto t2 = tessera::lb::reshape_thresholds({0.5, 0.5}, total2, p, total2, after_split.count);
  const int depth2 = tessera::lb::split_depth(64.0, t2.split_load);
  const std::int64_t roots_split = depth2 > 0 ? kRoots - 1 : 0;
  const std::int64_t merges = 512.0 / 64.0 / static_cast<double>(pieces) < t2.merge_load ? pairs : 0;
  ctx.lb().request("RotateLB");
  ctx.phase_end();
  const auto& second = *ctx.lb().last_report();
  EXPECT_EQ(second.splits, roots_split);
  EXPECT_EQ(second.merges, merges);
  const Totals after_merge = totals(strips);
  EXPECT_EQ(after_merge.count, after_split.count + roots_split * ((std::int64_t{1} << depth2) - 1) - merges);
  EXPECT_DOUBLE_EQ(after_merge.mass, total2);
  if (p == 2) {
    EXPECT_EQ(roots_split, 0);  // the case where only merges happen
  }
  if (p == 4) {
    EXPECT_EQ(roots_split, 7);  // the case where roots split as pieces merge
  }
  EXPECT_GT(merges, 0);  // on every rank count some siblings share a rank
  ctx.lb().set_load_model(nullptr);
  strips.destroy();
}

}  // namespace

int main(int argc, char** argv) {
  std::string split = "--tessera_lb_split_above=0.5", merge = "--tessera_lb_merge_below=0.5";
  std::vector<char*> args(argv, argv + argc);
  args.push_back(split.data());
  args.push_back(merge.data());
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);
  char** vector = args.data();
  tessera::Context ctx(count, vector);
  context = &ctx;
  ::testing::InitGoogleTest(&count, vector);
  auto& rt = ctx.runtime();
  if (rt.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  return rt.collectives().allreduce(failed, tessera::op::max{});
}
