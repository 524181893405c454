// Phase instrumentation: loads of elements doing known CPU work come out in order and in
// proportion; communication edges count exactly the messages and bytes sent; subphases; time
// outside elements is charged to the rank.
#include <tessera/collections.hpp>
#include <tessera/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "../../support/test_runtime.hpp"

namespace {

using namespace tessera::collections;

tessera::Runtime& rt() { return tessera::testing::runtime(); }

void spin_cpu(double seconds) {
  const double end = tessera::thread_cpu_time() + seconds;
  while (tessera::thread_cpu_time() < end) {
  }
}

constexpr double kUnit = 0.002;  // seconds of CPU work per unit

struct Worker : Element<Worker, 1> {
  void work() { spin_cpu(kUnit * units()); }
  int units() const { return static_cast<int>(linear_id() % 4) + 1; }
  void talk(std::int64_t n) {
    const auto next = static_cast<std::int64_t>((linear_id() + 1) % proxy().bounds()[0]);
    for (std::int64_t i = 0; i < n; ++i)
      proxy()[Index1D{next}].send<&Worker::listen>(std::vector<double>(linear_id() + 1, 1.5));
  }
  void listen(std::vector<double> values) { heard += static_cast<std::int64_t>(values.size()); }
  std::int64_t heard = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(heard);
  }
};

void rank_work(double seconds) { spin_cpu(seconds); }

TEST(Instrumentation, LoadsFollowKnownWorkInOrderAndProportion) {
  auto workers = make_collection<Worker>(rt(), {4 * static_cast<std::int64_t>(rt().size())});
  auto& phases = PhaseManager::of(rt());
  phases.end_phase();  // a clean phase boundary: nothing of the creation is measured
  // The same work in three phases, and each element's least load of the three: interference only
  // ever adds CPU time (on 64 ranks over 2 cores, a 2 ms handler once measured 10.2 ms in one
  // phase, a cost the handler did not cause), while a load charged to the wrong element or to the
  // wrong phase would be wrong in all three.
  constexpr int kRepeats = 3;
  std::map<int, double> by_units;
  for (int repeat = 0; repeat < kRepeats; ++repeat) {
    if (rt().rank() == 0) workers.broadcast_from_this_rank<&Worker::work>();
    rt().send<&rank_work>(rt().rank(), 0.01);
    const PhaseRecord record = phases.end_phase();
    ASSERT_EQ(record.elements.size(), 4u);
    for (const auto& element : record.elements) {
      EXPECT_EQ(element.key.collection, workers.id());
      EXPECT_EQ(element.home, rt().rank());
      EXPECT_EQ(element.index, (std::vector<std::int64_t>{static_cast<std::int64_t>(element.key.element)}));
      EXPECT_TRUE(element.subphase_loads.empty());
      const int units = static_cast<int>(element.key.element % 4) + 1;
      // At least the CPU time spun, in every phase.
      EXPECT_GE(element.load, kUnit * units) << units << " in repeat " << repeat;
      by_units[units] = repeat == 0 ? element.load : std::min(by_units[units], element.load);
    }
    // The free handler's work belongs to no element: it is the rank's.
    EXPECT_GE(record.rank_load, 0.01) << repeat;
  }
  ASSERT_EQ(by_units.size(), 4u);
  for (int u = 1; u <= 4; ++u) {
    // Not wildly more than the CPU time spun (the handler's own overhead is tiny).
    EXPECT_LT(by_units[u], kUnit * u * 1.5 + 0.002) << u;
  }
  EXPECT_LT(by_units[1], by_units[2]);
  EXPECT_LT(by_units[2], by_units[3]);
  EXPECT_LT(by_units[3], by_units[4]);
  workers.destroy();
}

TEST(Instrumentation, EdgesCountMessagesAndBytesExactly) {
  const std::int64_t n = 3 * rt().size();
  auto workers = make_collection<Worker>(rt(), {n});
  auto& phases = PhaseManager::of(rt());
  phases.end_phase();
  for (std::int64_t e = rt().rank(); e < n; e += rt().size()) workers[{e}].send<&Worker::talk>(e % 3 + 1);
  const PhaseRecord record = phases.end_phase();
  // Each element e receives talk from the rank, then e%3+1 vectors from element e-1.
  std::map<std::pair<ElementKey, ElementKey>, EdgeRecord> edges;
  for (const auto& edge : record.edges) edges[{edge.from, edge.to}] = edge;
  ASSERT_EQ(edges.size(), 2 * record.elements.size());
  for (const auto& element : record.elements) {
    const std::uint64_t e = element.key.element;
    const std::uint64_t prev = (e + static_cast<std::uint64_t>(n) - 1) % static_cast<std::uint64_t>(n);
    const auto& from_rank = edges.at({ElementKey{0, e % static_cast<std::uint64_t>(rt().size())}, element.key});
    EXPECT_EQ(from_rank.messages, 1);
    EXPECT_EQ(from_rank.bytes, 8.0);  // one int64 argument
    const auto& from_prev = edges.at({ElementKey{workers.id(), prev}, element.key});
    const std::int64_t count = static_cast<std::int64_t>(prev % 3 + 1);
    EXPECT_EQ(from_prev.messages, count);
    // A vector argument: 64-bit length prefix, then cereal's 64-bit size and the doubles.
    EXPECT_EQ(from_prev.bytes, static_cast<double>(count * (8 + 8 + 8 * static_cast<std::int64_t>(prev + 1))));
    EXPECT_EQ(workers.manager().local(e)->heard, count * static_cast<std::int64_t>(prev + 1));
  }
  workers.destroy();
}

TEST(Instrumentation, SubphasesSplitTheLoad) {
  auto workers = make_collection<Worker>(rt(), {2 * static_cast<std::int64_t>(rt().size())});
  auto& phases = PhaseManager::of(rt());
  phases.end_phase();
  if (rt().rank() == 0) workers.broadcast_from_this_rank<&Worker::work>();
  rt().drain();
  phases.set_subphase(2);
  // The subphase is each rank's own: every rank sets it before rank 0 sends the work charged to
  // it (drain returns on each rank at its own time, and a rank still inside it would run the
  // broadcast in subphase 0; seen once in a loaded CI run, on 4 ranks).
  rt().collectives().barrier();
  // Six units of work against one: on wall-clock loads a rank descheduled inside the one unit
  // (16 ranks on 2 cores) once made it 0.019 s against 0.016 s for two.
  if (rt().rank() == 0)
    for (int k = 0; k < 6; ++k) workers.broadcast_from_this_rank<&Worker::work>();
  const PhaseRecord record = phases.end_phase();
  ASSERT_EQ(record.elements.size(), 2u);
  for (const auto& element : record.elements) {
    ASSERT_EQ(element.subphase_loads.size(), 3u);
    EXPECT_EQ(element.subphase_loads[1], 0.0);
    // One run of the work in subphase 0 and six in subphase 2: each holds at least what it spun,
    // and subphase 0 less than the six runs (all seven charged to one subphase would fail both).
    // Bounds, not a ratio: one handler measured 8 ms over its 2 ms once, on 64 ranks over 2 cores.
    const double units = element.key.element % 4 + 1;
    EXPECT_GE(element.subphase_loads[0], units * kUnit);
    EXPECT_GE(element.subphase_loads[2], 6 * units * kUnit);
    EXPECT_LT(element.subphase_loads[0], 6 * units * kUnit);
    EXPECT_DOUBLE_EQ(element.load, element.subphase_loads[0] + element.subphase_loads[2]);
  }
  EXPECT_EQ(phases.subphase(), 0);
  workers.destroy();
}

}  // namespace
