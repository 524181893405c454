#pragma once
// The iterative benchmark of retentive stealing: seed 000 Figure 7 and Table 2 in miniature.
//
// `tasks` tasks with persistent, skewed durations (task i busy-waits base * (1 + i % 7) / 4
// seconds, the same in every iteration) are all seeded on rank 0, the worst seeding, and the
// collection runs `iterations` times. Without retention every iteration starts from that
// seeding and must be rebalanced by stealing from scratch; with it each rank starts from the
// tasks it ran last time, so steals fall after the first iteration.

#include <tessera/collections/steal/steal_options.hpp>
#include <tessera/collections/steal/steal_stats.hpp>

#include <vector>

namespace tessera {
class Runtime;
class Termination;
}  // namespace tessera

namespace tessera::bench {

struct RetentiveWorkload {
  int tasks = 96;
  int iterations = 5;
  double base_seconds = 400e-6;
};

// Collective. Per iteration: the statistics of process().
std::vector<collections::steal::IterationStats> run_iterative(Runtime& rt, Termination& term,
                                                              const RetentiveWorkload& workload,
                                                              const collections::steal::StealOptions& options);

}  // namespace tessera::bench
