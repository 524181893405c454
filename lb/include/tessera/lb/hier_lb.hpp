#pragma once
// HierLB: the hierarchical persistence-based balancer of Lifflander, Krishnamoorthy and Kale
// (HPDC 2012), Algorithm 2. Ranks form an n-ary tree (children of r are
// r*n+1 .. r*n+n; every rank is also a leaf of its own subtree):
//   1. the average rank load is found by a sum reduction;
//   2. every rank above C x average sheds its smallest migratable objects;
//   3. up the tree: a rank gathers its children's shed objects and subtree loads, hands the largest
//      objects to the child subtree (or itself) of least average load while that average is below
//      D x average, and passes the leftovers and its subtree's load and size to its parent;
//   4. down from the root: leftovers are dealt by the same greedy rule, largest object to the
//      subtree of least average load, until every object reaches a rank.
// Only descriptors (id, load, source rank) travel along the tree; the destination finally tells
// each source rank where its objects go, so objects move directly. No rank sees more than its
// children's reports, which is why its busiest rank does far less than GreedyLB's root.
//
// Nodes (the backend's node map, comm.hpp): when it puts the ranks on two nodes or more, the tree
// has two levels. Each node's ranks form their own n-ary tree in rank order (its k-th rank's
// children are its (k*n+1)-th .. (k*n+n)-th), rooted at the node's lowest rank, its leader; the
// leaders form an n-ary tree in rank order above, rooted at rank 0. A leader first runs step 3 for
// its node alone (so a node's surplus goes to the node's own underloaded ranks first, over the
// shared-memory transport), and only what the node cannot place goes up the leaders' tree, where a
// whole node is one bin judged by its average load; on the way down a node's share is dealt inside
// it by the same rule. Like Charm++'s TreeLB node level. With one node, or none (every rank a node
// of its own), the tree is exactly the one above.
//
// memory_limit (and ranks' metadata memory_limit, work_model.hpp): every report also carries the
// largest memory headroom of a rank in the subtree, less the upper bounds of what was handed to it;
// an object goes only to a bin with room for it, so whatever a subtree accepts fits on its rank of
// largest headroom, and an object that fits nowhere stays where it is.

#include "tessera/lb/args.hpp"
#include "tessera/lb/strategy.hpp"
#include "tessera/lb/work_model.hpp"

namespace tessera::lb {

class HierLB final : public Strategy {
 public:
  struct Options {
    double c = 1.003;      // shed while load > c x average; c >= 1 (seed 000, section 7.1)
    double d = 1.003;      // serve a subtree while its average load < d x average; d >= 1
    int branching = 3;     // tree arity n; >= 2
    WorkModel work;        // only memory limits are honoured; HierLB balances load
  };

  HierLB();  // the paper's defaults
  explicit HierLB(Options options);
  static std::vector<KeySpec> keys();
  static HierLB from_args(const Args& args);

  std::string_view name() const override { return "HierLB"; }
  Plan run(comm::Backend& backend, std::span<const StrategyInput> hosted) override;
  const WorkModel* work_model() const override { return &options_.work; }

 private:
  Options options_;
};

}  // namespace tessera::lb
