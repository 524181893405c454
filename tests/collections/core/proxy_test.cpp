// Proxies: element sends, broadcasts, reductions in 1, 2 and 3 dimensions; mappers; elements
// knowing their index and proxy.
#include <tessera/collections.hpp>
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include "../../support/test_runtime.hpp"

namespace {

using namespace tessera::collections;

struct Cell : Element<Cell, 2> {
  Cell() = default;
  Cell(const Index2D& idx, int scale) : value(scale * (idx[0] * 10 + idx[1])) {}
  std::int64_t value = 0;
  std::int64_t received = 0;
  std::int64_t broadcasts = 0;
  int last_rank = -1;

  void add(std::int64_t amount) { received += amount; }
  void ping_neighbour(std::int64_t amount) {
    // An element finds its own index and proxy and sends to a neighbour.
    const Index2D next{(index()[0] + 1) % proxy().bounds()[0], index()[1]};
    proxy()[next].send<&Cell::add>(amount + value);
  }
  void tick(int rank_hint) {
    broadcasts += 1;
    last_rank = rank_hint;
  }
  void total(std::int64_t sum) { received = sum; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value, received, broadcasts, last_rank);
  }
};

struct Line : Element<Line, 1> {
  explicit Line(int base = 0) : base(base) {}
  int base = 0;
  std::int64_t hits = 0;
  void hit() { ++hits; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(base, hits);
  }
};

struct Brick : Element<Brick, 3> {
  std::int64_t sum = 0;
  void add(std::int64_t v) { sum += v; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sum);
  }
};

tessera::Runtime& rt() { return tessera::testing::runtime(); }

TEST(Proxy, BlockMapperSplitsEvenly) {
  const Index1D bounds{10};
  std::vector<int> per_rank(3, 0);
  for (int i = 0; i < 10; ++i) per_rank[block_map<1>(Index1D{i}, bounds, 3)] += 1;
  EXPECT_EQ(per_rank, (std::vector<int>{3, 3, 4}));
  EXPECT_EQ(block_map<1>(Index1D{0}, bounds, 3), 0);
  EXPECT_EQ(block_map<1>(Index1D{9}, bounds, 3), 2);
  EXPECT_EQ(linearize(Index2D{2, 3}, Index2D{4, 5}), 13u);
  EXPECT_EQ(delinearize(13, Index2D{4, 5}), (Index2D{2, 3}));
  EXPECT_EQ(to_string(Index3D{1, 2, 3}), "(1, 2, 3)");
}

TEST(Proxy, ElementsConstructedWithIndexAndArgumentsAtHome) {
  auto cells = make_collection<Cell>(rt(), {4, 6}, 2);
  std::int64_t local = 0;
  cells.manager().for_each_local([&](Cell& c) {
    EXPECT_EQ(c.value, 2 * (c.index()[0] * 10 + c.index()[1]));
    EXPECT_EQ(block_map<2>(c.index(), cells.bounds(), rt().size()), rt().rank());
    EXPECT_EQ(c.proxy().id(), cells.id());
    ++local;
  });
  EXPECT_EQ(rt().collectives().allreduce(local, tessera::op::sum{}), 24);
  cells.destroy();
}

TEST(Proxy, SendsFromOutsideAndFromElementsArriveExactly) {
  auto cells = make_collection<Cell>(rt(), {4, 6}, 1);
  // Every rank sends 1 to every element; then every element pings its neighbour down column 0.
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) cells[{i, j}].send<&Cell::add>(std::int64_t{1});
  rt().drain();
  if (rt().rank() == 0) cells.broadcast_from_this_rank<&Cell::ping_neighbour>(std::int64_t{1000});
  rt().drain();
  const std::int64_t p = rt().size();
  cells.manager().for_each_local([&](Cell& c) {
    const Index2D prev{(c.index()[0] + 3) % 4, c.index()[1]};
    EXPECT_EQ(c.received, p + 1000 + (prev[0] * 10 + prev[1])) << to_string(c.index());
  });
  cells.destroy();
}

TEST(Proxy, BroadcastReachesEveryElementOncePerCall) {
  auto lines = make_collection<Line>(rt(), {37}, 5);
  lines.broadcast_from_this_rank<&Line::hit>();
  if (rt().rank() == 0) lines.broadcast_from_this_rank<&Line::hit>();
  rt().drain();
  const auto hits = lines.allreduce(std::int64_t{0}, tessera::op::sum{}, [](Line& l) { return l.hits; });
  EXPECT_EQ(hits, 37 * (rt().size() + 1));
  const auto bases = lines.allreduce(0, tessera::op::sum{}, [](Line& l) { return l.base; });
  EXPECT_EQ(bases, 37 * 5);
  lines.destroy();
}

TEST(Proxy, ThreeDimensionsAndUserMapper) {
  // Everything homed on the last rank.
  const int last = rt().size() - 1;
  auto bricks = make_mapped_collection<Brick>(
      rt(), {2, 3, 4}, [last](const Index3D&, const Index3D&, int) { return last; });
  EXPECT_EQ(bricks.manager().local_count(), rt().rank() == last ? 24u : 0u);
  if (rt().rank() == 0)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) bricks[{i, j, k}].send<&Brick::add>(std::int64_t{i * 100 + j * 10 + k});
  rt().drain();
  if (rt().rank() == last) {
    EXPECT_EQ(bricks.local({1, 2, 3})->sum, 123);
    EXPECT_EQ(bricks.local({0, 1, 0})->sum, 10);
  } else {
    EXPECT_EQ(bricks.local({1, 2, 3}), nullptr);
  }
  const auto total = bricks.allreduce(std::int64_t{0}, tessera::op::sum{}, [](Brick& b) { return b.sum; });
  EXPECT_EQ(total, 4 * (0 + 100) * 3 + 2 * 4 * (0 + 10 + 20) + 2 * 3 * (0 + 1 + 2 + 3));
  bricks.destroy();
}

TEST(Proxy, ReductionToCallbackAndToElement) {
  auto cells = make_collection<Cell>(rt(), {3, 3}, 1);
  std::int64_t on_root = -1;
  cells.reduce(std::int64_t{0}, tessera::op::sum{}, [](Cell& c) { return c.value; },
               std::function<void(std::int64_t)>([&on_root](std::int64_t v) { on_root = v; }));
  cells.reduce_to<&Cell::total>({2, 1}, std::int64_t{0}, tessera::op::max{}, [](Cell& c) { return c.value; });
  rt().drain();
  // Values are 10*i + j over a 3x3 grid: sum 3*(0+10+20) + 3*(0+1+2) = 99, max 22.
  if (rt().rank() == 0) {
    EXPECT_EQ(on_root, 99);
  }
  if (Cell* c = cells.local({2, 1})) {
    EXPECT_EQ(c->received, 22);
  }
  cells.destroy();
}

}  // namespace
