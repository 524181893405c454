#pragma once
// The greedy rule shared by GreedyLB's root and HierLB's tree nodes (Lifflander et al., seed 000,
// Algorithms 1 and 2): the largest remaining task goes to the bin with the least load, using a
// max-ordered task pool and a min-heap of bins. A bin is a rank (size 1) or, in HierLB, a subtree
// judged by its average load per rank.

#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/lb/model.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb::detail {

// A task in flight: only this descriptor travels, never the object.
struct Descriptor {
  ObjectId id;
  double load = 0.0;  // seconds
  Rank from = no_rank;  // rank the object is on
  double memory = 0.0;  // bytes it may add to a rank: footprint + working + its shared block
};

struct Bin {
  Rank rank = no_rank;     // the rank (or subtree root) it stands for
  double load = 0.0;       // seconds, including what was assigned
  std::int64_t size = 1;   // ranks behind it (0: only ranks that leave, never a destination)
  // Bytes it may still take under the memory limits (work_model.hpp): the rank's limit less its
  // memory, or for a subtree the largest of its ranks'; +inf without limits. Assignments deduct
  // their Descriptor::memory, an upper bound, so a limit is never broken (and a subtree can always
  // place what it accepted on its rank of largest headroom).
  double headroom = std::numeric_limits<double>::infinity();
  double average() const {
    return size > 0 ? load / static_cast<double>(size) : std::numeric_limits<double>::infinity();
  }
};

struct Assignment {
  Descriptor task;
  std::size_t bin;  // index into the bins argument
};

// Assigns tasks of `pool`, largest first (ties: smaller id first), each to the bin of least
// average load (ties: lower rank) whose headroom takes it, while the least average is below
// `limit`; a task no bin has room for is skipped. Assigned tasks are removed from `pool` and added
// to their bin's load (and taken off its headroom); the rest stay in `pool`, largest first.
std::vector<Assignment> assign_largest_to_least(
    std::vector<Descriptor>& pool, std::vector<Bin>& bins,
    double limit = std::numeric_limits<double>::infinity());

// Sheds the smallest migratable objects (ties: smaller id first) while `load` > threshold;
// returns them as descriptors of rank `rank` and lowers `load` accordingly.
// (A shed object stays counted in its rank's memory until it is assigned elsewhere.)
std::vector<Descriptor> shed_smallest(const std::vector<LbObject>& objects, Rank rank, double& load,
                                      double threshold);

// The headroom of rank `input` under `model`'s limits (+inf without one), bytes.
double rank_headroom(const WorkModel& model, const StrategyInput& input);

}  // namespace tessera::lb::detail
