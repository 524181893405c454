#pragma once
// GreedyLB: the centralized persistence-based balancer of Lifflander, Krishnamoorthy and Kale,
// "Work Stealing and Persistence-based Load Balancers for Iterative Overdecomposed Applications"
// (HPDC 2012), Algorithm 1:
//   1. the average rank load is found by a sum reduction;
//   2. every rank above C x average sheds its smallest migratable objects until it is not;
//   3. every rank sends its shed objects (descriptors only) and remaining load to rank 0;
//   4. rank 0 assigns the largest shed object to the least-loaded rank, repeatedly (a max-ordered
//      pool and a min-heap of rank loads), and tells each source rank where its objects go.
// Unlike vt's GreedyLB, loads are exact (no 10 ms bins), so fine-grained objects are balanced too.
//
// mode=full: every rank sheds all migratable objects and rank 0 reassigns them all by longest
// processing time first (LPT; max rank load <= average + largest object when fixed loads allow).
// Rank 0's work grows with the number of shed objects and ranks: it is the bottleneck at scale,
// which HierLB (hier_lb.hpp) removes.
//
// memory_limit (and a rank's metadata memory_limit, work_model.hpp): an object goes only to a rank
// whose headroom (limit less memory, shed objects still counted at home) covers an upper bound of
// what it adds (footprint + working bytes + its shared block); one that fits nowhere stays.

#include "tessera/lb/args.hpp"
#include "tessera/lb/strategy.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb {

class GreedyLB final : public Strategy {
 public:
  enum class Mode { refine, full };
  struct Options {
    double c = 1.003;  // shed while load > c x average; c >= 1 (seed 000, section 7.1)
    Mode mode = Mode::refine;
    WorkModel work;  // only memory limits are honoured (a shed object goes to the least-loaded
                     // rank with room for it, or stays); GreedyLB balances load
  };

  GreedyLB();  // the paper's defaults
  explicit GreedyLB(Options options);
  static std::vector<KeySpec> keys();
  static GreedyLB from_args(const Args& args);

  std::string_view name() const override { return "GreedyLB"; }
  Plan run(comm::Backend& backend, std::span<const StrategyInput> hosted) override;
  const WorkModel* work_model() const override { return &options_.work; }

 private:
  Options options_;
};

}  // namespace tessera::lb
