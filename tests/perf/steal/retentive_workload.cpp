#include "retentive_workload.hpp"

#include <tessera/collections/steal/task_collection.hpp>
#include <tessera/runtime/timer.hpp>

namespace tessera::bench {

namespace {
struct Chunk {
  std::int32_t id;
  double seconds;
};
}  // namespace

std::vector<collections::steal::IterationStats> run_iterative(Runtime& rt, Termination& term,
                                                              const RetentiveWorkload& workload,
                                                              const collections::steal::StealOptions& options) {
  using collections::steal::Spawner;
  // Busy-waiting, not sleeping: the work must occupy the rank's core as computation does.
  collections::steal::TaskCollection<Chunk> chunks(rt, term, options, [](const Chunk& c, Spawner<Chunk>&) {
    const double until = wall_time() + c.seconds;
    while (wall_time() < until) {
    }
  });
  if (rt.rank() == 0)
    for (std::int32_t i = 0; i < workload.tasks; ++i)
      chunks.seed(Chunk{i, workload.base_seconds * (1 + i % 7) / 4});
  std::vector<collections::steal::IterationStats> stats;
  for (int i = 0; i < workload.iterations; ++i) {
    if (i > 0) chunks.restore();
    stats.push_back(chunks.process());
  }
  return stats;
}

}  // namespace tessera::bench
