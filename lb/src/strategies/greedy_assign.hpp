#pragma once
// The greedy rule shared by GreedyLB's root and HierLB's tree nodes (Lifflander et al., seed 000,
// Algorithms 1 and 2): the largest remaining task goes to the bin with the least load, using a
// max-ordered task pool and a min-heap of bins. A bin is a rank (size 1) or, in HierLB, a subtree
// judged by its average load per rank.

#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/lb/model.hpp"

namespace tessera::lb::detail {

// A task in flight: only this descriptor travels, never the object.
struct Descriptor {
  ObjectId id;
  double load = 0.0;  // seconds
  Rank from = no_rank;  // rank the object is on
};

struct Bin {
  Rank rank = no_rank;     // the rank (or subtree root) it stands for
  double load = 0.0;       // seconds, including what was assigned
  std::int64_t size = 1;   // ranks behind it
  double average() const { return load / static_cast<double>(size); }
};

struct Assignment {
  Descriptor task;
  std::size_t bin;  // index into the bins argument
};

// Assigns tasks of `pool`, largest first (ties: smaller id first), each to the bin of least
// average load (ties: lower rank), while that least average is below `limit`. Assigned tasks are
// removed from `pool` and added to their bin's load; the rest stay in `pool`, largest first.
std::vector<Assignment> assign_largest_to_least(
    std::vector<Descriptor>& pool, std::vector<Bin>& bins,
    double limit = std::numeric_limits<double>::infinity());

// Sheds the smallest migratable objects (ties: smaller id first) while `load` > threshold;
// returns them as descriptors of rank `rank` and lowers `load` accordingly.
std::vector<Descriptor> shed_smallest(const std::vector<LbObject>& objects, Rank rank, double& load,
                                      double threshold);

}  // namespace tessera::lb::detail
