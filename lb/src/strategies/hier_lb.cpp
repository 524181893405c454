#include "tessera/lb/hier_lb.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "plan_messages.hpp"

namespace tessera::lb {

namespace {

using detail::Bin;
using detail::Descriptor;
using detail::MoveOrder;
using detail::ShedReport;

constexpr Rank root = 0;

struct TaskList {
  std::vector<Descriptor> tasks;
  template <class A>
  void serialize(A& ar) {
    ar(tasks);
  }
};

// Agreed by every rank before the tree sweep starts.
struct Shared {
  double shed_above = 0.0;   // C x average
  double serve_below = 0.0;  // D x average
  const WorkModel* work = nullptr;
  comm::Handler<ShedReport> up;
  comm::Handler<TaskList> down;
  comm::Handler<ShedReport> up_nodes;
  comm::Handler<TaskList> down_nodes;
  comm::Handler<MoveOrder> moves;
};

// One vertex of the tree: bins[0] stands for what is below it but not in a child's subtree (the
// rank itself, or for a vertex of the node tree the rank's whole node), bins[1 + i] for the
// subtree of children[i].
struct Vertex {
  Rank parent = no_rank;
  std::vector<Rank> children;
  std::size_t reported = 0;
  bool shed = false;  // bins[0] gave objects away
  std::vector<Bin> bins;
  std::vector<Descriptor> pool;
  std::vector<std::vector<Descriptor>> assigned;  // per bin, until the down sweep passes

  void set_children(std::vector<Rank> ranks) {
    children = std::move(ranks);
    bins.resize(1 + children.size());
    assigned.resize(1 + children.size());
  }
  std::size_t bin_of(Rank child) const {
    return 1 + static_cast<std::size_t>(std::find(children.begin(), children.end(), child) - children.begin());
  }
  void receive(std::size_t bin, Rank source, const ShedReport& report) {
    bins[bin] = Bin{source, report.remaining, report.ranks, report.headroom};
    pool.insert(pool.end(), report.tasks.begin(), report.tasks.end());
  }
  bool complete() const { return reported == children.size(); }

  // The up-sweep step of a non-root vertex: serve the bins below D x average, report the rest.
  ShedReport serve(double serve_below) {
    // A bin that shed is not underloaded: were it a candidate here, the objects it just shed would
    // come straight back, since shedding stops at or below the serving threshold.
    std::vector<Bin> candidates(bins.begin() + (shed ? 1 : 0), bins.end());
    for (const auto& a : detail::assign_largest_to_least(pool, candidates, serve_below)) {
      const std::size_t bin = a.bin + (shed ? 1 : 0);
      bins[bin].load += a.task.load;
      bins[bin].headroom -= a.task.memory;
      assigned[bin].push_back(a.task);
    }
    ShedReport report;
    report.ranks = 0;
    report.headroom = -std::numeric_limits<double>::infinity();
    for (const auto& bin : bins) {
      report.remaining += bin.load;
      report.ranks += bin.size;
      report.headroom = std::max(report.headroom, bin.headroom);
    }
    report.tasks = std::move(pool);
    pool.clear();
    return report;
  }

  // The down-sweep step: deal `tasks` to the bins, largest to least average.
  void deal(std::vector<Descriptor> tasks) {
    for (const auto& a : detail::assign_largest_to_least(tasks, bins)) assigned[a.bin].push_back(a.task);
  }
};

// Each rank is a vertex of the rank tree (`ranks`). With a node map of several nodes the rank tree
// is a forest, one tree per node over its ranks, and each node's lowest rank (its leader) is also a
// vertex of the node tree (`nodes`) above: the leader's rank-tree root reports to its own node-tree
// vertex, whose bins[0] is the whole node.
struct HierRank {
  const StrategyInput* input = nullptr;
  const Shared* shared = nullptr;
  Vertex ranks;
  bool leader = false;  // also a vertex of the node tree
  bool started = false;  // start() has run (children may report before it)
  Vertex nodes;
  std::vector<Migration> plan;

  // On live ranks a child can report before this rank has started (it left the allreduce that
  // precedes the sweep first, and this rank ran its report while finishing that allreduce): what
  // arrived stays in the pool, and the sweep goes on only once this rank has started too.
  void start(comm::Communicator& ctx) {
    // A leaving rank gives everything away and, with no headroom, is never given anything.
    constexpr double none = -std::numeric_limits<double>::infinity();
    double remaining = input->load();
    std::vector<Descriptor> own =
        detail::shed_smallest(input->objects, ctx.rank(), remaining, input->leaving ? none : shared->shed_above);
    ranks.shed = !own.empty();
    ranks.pool.insert(ranks.pool.end(), own.begin(), own.end());
    // A leaving rank counts no rank in its subtree's average: the objects go to those that stay.
    ranks.bins[0] = Bin{ctx.rank(), remaining, input->leaving ? 0 : 1,
                        input->leaving ? none : detail::rank_headroom(*shared->work, *input)};
    started = true;
    if (ranks.complete()) finish_up(ctx);
  }

  void on_up(comm::Communicator& ctx, const ShedReport& report) {
    ranks.receive(ranks.bin_of(ctx.source()), ctx.source(), report);
    ++ranks.reported;
    if (started && ranks.complete()) finish_up(ctx);
  }

  void finish_up(comm::Communicator& ctx) {
    if (ctx.rank() == root && !leader) {
      distribute(ctx, std::move(ranks.pool));
      return;
    }
    ShedReport report = ranks.serve(shared->serve_below);
    if (leader) {
      // Whatever the node could not place leaves it only now: the node is served first.
      nodes.shed = !report.tasks.empty();
      nodes.receive(0, ctx.rank(), report);
      if (nodes.complete()) finish_up_nodes(ctx);
    } else {
      ctx.send(ranks.parent, shared->up, report);
    }
  }

  void on_up_nodes(comm::Communicator& ctx, const ShedReport& report) {
    nodes.receive(nodes.bin_of(ctx.source()), ctx.source(), report);
    ++nodes.reported;
    if (nodes.complete() && reported_own_node()) finish_up_nodes(ctx);
  }

  void finish_up_nodes(comm::Communicator& ctx) {
    if (!reported_own_node()) return;  // the own node's report completes it
    if (ctx.rank() == root) {
      distribute_nodes(ctx, std::move(nodes.pool));
      return;
    }
    ctx.send(nodes.parent, shared->up_nodes, nodes.serve(shared->serve_below));
  }

  void on_down(comm::Communicator& ctx, const TaskList& list) { distribute(ctx, list.tasks); }
  void on_down_nodes(comm::Communicator& ctx, const TaskList& list) { distribute_nodes(ctx, list.tasks); }

  void distribute_nodes(comm::Communicator& ctx, std::vector<Descriptor> tasks) {
    nodes.deal(std::move(tasks));
    for (std::size_t i = 0; i < nodes.children.size(); ++i) {
      ctx.send(nodes.children[i], shared->down_nodes, TaskList{std::move(nodes.assigned[1 + i])});
    }
    distribute(ctx, std::move(nodes.assigned[0]));
  }

  void distribute(comm::Communicator& ctx, std::vector<Descriptor> tasks) {
    ranks.deal(std::move(tasks));
    for (std::size_t i = 0; i < ranks.children.size(); ++i) {
      ctx.send(ranks.children[i], shared->down, TaskList{std::move(ranks.assigned[1 + i])});
    }
    // What stays here has arrived: tell each source rank to send its object to this rank.
    std::vector<detail::Assignment> arrived;
    for (const auto& task : ranks.assigned[0]) arrived.push_back(detail::Assignment{task, 0});
    detail::order_moves(ctx, shared->moves, arrived, [&](std::size_t) { return ctx.rank(); });
  }

  void on_moves(comm::Communicator&, const MoveOrder& order) {
    plan.insert(plan.end(), order.moves.begin(), order.moves.end());
  }

 private:
  // bins[0] of the node tree is filled by this rank's own rank tree, which may finish after the
  // child leaders' reports arrive (or before).
  bool reported_own_node() const { return nodes.bins[0].rank != no_rank; }
};

// Children of every vertex: n-ary trees in rank order. Without a node map that groups several
// nodes, one tree over all ranks (children of r are r*n+1 .. r*n+n, seed 000's shape); otherwise
// one such tree over each node's ranks (in rank order, rooted at its lowest rank), and one over the
// nodes' lowest ranks (in rank order, rooted at rank 0).
class Tree {
 public:
  Tree(const NodeMap& map, Rank size, std::int64_t n) : size_(size), n_(n) {
    if (!map.grouped()) return;
    std::map<std::int32_t, std::size_t> node_index;  // node id -> members_ index, in order of lowest rank
    position_.resize(static_cast<std::size_t>(size));
    for (Rank r = 0; r < size; ++r) {
      const auto [it, fresh] = node_index.emplace(map.node_of(r), members_.size());
      if (fresh) members_.emplace_back();
      node_of_.push_back(it->second);
      position_[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(members_[it->second].size());
      members_[it->second].push_back(r);
    }
    if (members_.size() < 2) members_.clear();  // one node: the plain tree is the node's tree
  }

  bool by_node() const { return !members_.empty(); }

  void shape(Rank r, HierRank& self) const {
    if (!by_node()) {
      self.ranks.parent = r == root ? no_rank : static_cast<Rank>((r - 1) / n_);
      self.ranks.set_children(children(std::int64_t{r}, size_, [](std::int64_t i) { return static_cast<Rank>(i); }));
      return;
    }
    const std::vector<Rank>& members = members_[node_of_[static_cast<std::size_t>(r)]];
    const std::int64_t i = position_[static_cast<std::size_t>(r)];
    self.ranks.parent = i == 0 ? no_rank : members[static_cast<std::size_t>((i - 1) / n_)];
    self.ranks.set_children(children(i, static_cast<std::int64_t>(members.size()),
                                     [&](std::int64_t k) { return members[static_cast<std::size_t>(k)]; }));
    if (i != 0) return;
    self.leader = true;
    const auto j = static_cast<std::int64_t>(node_of_[static_cast<std::size_t>(r)]);
    self.nodes.parent = j == 0 ? no_rank : members_[static_cast<std::size_t>((j - 1) / n_)].front();
    self.nodes.set_children(children(j, static_cast<std::int64_t>(members_.size()),
                                     [&](std::int64_t k) { return members_[static_cast<std::size_t>(k)].front(); }));
  }

 private:
  template <class RankAt>
  std::vector<Rank> children(std::int64_t i, std::int64_t count, RankAt&& rank_at) const {
    std::vector<Rank> out;
    for (std::int64_t k = i * n_ + 1; k <= i * n_ + n_ && k < count; ++k) out.push_back(rank_at(k));
    return out;
  }

  Rank size_;
  std::int64_t n_;
  std::vector<std::vector<Rank>> members_;  // ranks of each node, nodes in order of lowest rank
  std::vector<std::size_t> node_of_;        // by rank: index into members_
  std::vector<std::int64_t> position_;      // by rank: place among its node's ranks
};

}  // namespace

HierLB::HierLB() : HierLB(Options{}) {}

HierLB::HierLB(Options options) : options_(options) {
  if (!(options_.c >= 1.0)) throw ArgumentError("HierLB: c must be >= 1");
  if (!(options_.d >= 1.0)) throw ArgumentError("HierLB: d must be >= 1");
  if (options_.branching < 2) throw ArgumentError("HierLB: branching must be >= 2");
}

std::vector<KeySpec> HierLB::keys() {
  return {
      real_key("c", "1.003", "ranks above c x average load shed their smallest objects (seed 000, Algorithm 2)", 1.0),
      real_key("d", "1.003", "on the way up, a subtree is served while its average load is below d x average", 1.0),
      integer_key("branching", "3", "arity of the rank tree", 2, 1 << 20),
      WorkModel::keys().back(),  // memory_limit
  };
}

HierLB HierLB::from_args(const Args& args) {
  Options o{args.real("c"), args.real("d"), static_cast<int>(args.integer("branching")), {}};
  o.work.memory_limit = args.real("memory_limit");
  return HierLB(o);
}

Plan HierLB::run(comm::Backend& backend, std::span<const StrategyInput> hosted) {
  check_hosted_inputs(backend, hosted);
  const Rank ranks = backend.size();
  const auto n = static_cast<std::int64_t>(options_.branching);
  Shared shared;
  shared.work = &options_.work;
  const Tree tree(backend.nodes(), ranks, n);
  std::size_t next = 0;
  comm::Team<HierRank> team(backend, [&](Rank r) {
    HierRank self;
    self.input = &hosted[next++];
    self.shared = &shared;
    tree.shape(r, self);
    return self;
  });
  shared.up = team.handler<&HierRank::on_up>();
  shared.down = team.handler<&HierRank::on_down>();
  shared.moves = team.handler<&HierRank::on_moves>();
  shared.up_nodes = team.handler<&HierRank::on_up_nodes>();
  shared.down_nodes = team.handler<&HierRank::on_down_nodes>();

  const double total = team.allreduce(comm::ReduceOp::sum, [](HierRank& self) { return self.input->load(); });
  const Rank staying = staying_ranks(backend, hosted);
  shared.shed_above = options_.c * total / staying;
  shared.serve_below = options_.d * total / staying;

  team.step([](HierRank& self, comm::Communicator& ctx) { self.start(ctx); });
  team.run_until_quiet();
  return detail::collect_plan(team);
}

}  // namespace tessera::lb
