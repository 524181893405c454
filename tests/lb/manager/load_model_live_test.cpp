// --tessera_lb_model in a live run on 2 ranks: the strategy sees the load model's prediction from
// each element's history (exact, through an injected counted load), and an element that migrates
// takes its history along, so the model predicts from the whole of it on its new rank.
#include <tessera/tessera.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace tessera::collections;

struct Cell : Element<Cell, 1> {
  std::int64_t visits = 0;
  void visit() { ++visits; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(visits);
  }
};

tessera::Context* context = nullptr;

// Element e counts (e + 1) x (phase + 1) seconds in phase `phase`: a load growing linearly.
double growing(const tessera::lb::LbObject& o, tessera::lb::PhaseId phase) {
  return o.migratable ? static_cast<double>(o.id.value + 1) * static_cast<double>(phase + 1) : 0.0;
}

TEST(LbManagerLoadModel, LinearPredictsTheNextPhaseAndHistoryMigratesWithTheElement) {
  auto& ctx = *context;
  auto& rt = ctx.runtime();
  auto cells = make_collection<Cell>(rt, {2 * rt.size()});
  ctx.phase_end();  // phase 0: the collection's creation
  ctx.lb().set_load_model(growing);
  if (rt.rank() == 0) cells.broadcast_from_this_rank<&Cell::visit>();
  const auto first = ctx.phase_end();  // phase 1: recorded, not balanced
  ctx.lb().request("RotateLB");
  if (rt.rank() == 0) cells.broadcast_from_this_rank<&Cell::visit>();
  const auto second = ctx.phase_end();  // phase 2: balanced with the history of phases 1 and 2
  ASSERT_EQ(second.phase, first.phase + 1);
  // linear:2 through (e+1)(p), (e+1)(p+1) at the phase after: (e+1)(p+2), p = first.phase + 1.
  for (const auto& o : ctx.lb().last_input().objects) {
    if (!o.migratable) continue;
    EXPECT_EQ(o.load, static_cast<double>(o.id.value + 1) * static_cast<double>(second.phase + 2)) << o.id.value;
  }
  EXPECT_EQ(ctx.lb().last_plan().migrations.size(), 2u);
  // The elements now sit on rank r + 1. One more phase: had the history stayed behind, the model
  // would see one load and predict (e+1)(p+1); with it, the line continues to (e+1)(p+2).
  ctx.lb().request("RotateLB");
  if (rt.rank() == 0) cells.broadcast_from_this_rank<&Cell::visit>();
  const auto third = ctx.phase_end();
  std::size_t checked = 0;
  for (const auto& o : ctx.lb().last_input().objects) {
    if (!o.migratable) continue;
    EXPECT_EQ(o.load, static_cast<double>(o.id.value + 1) * static_cast<double>(third.phase + 2)) << o.id.value;
    ++checked;
  }
  EXPECT_EQ(checked, 2u);
  ctx.lb().set_load_model(nullptr);
  cells.destroy();
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_flag = "--tessera_lb_model=linear:2";
  std::vector<char*> args(argv, argv + argc);
  args.push_back(model_flag.data());
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
