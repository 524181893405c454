#pragma once
// The communication interface LB strategies are written against, and nothing else.
//
// A strategy runs as one instance per rank ("Local"), grouped in a Team. Collective steps run a
// function on every rank this process hosts; a message sent to rank r runs its handler on rank r's
// instance; run_until_quiet() returns once every message, and every message those caused, has been
// handled everywhere; allreduce and broadcast are the only other ways ranks learn about each other.
// Strategies never touch another rank's instance, so the same code runs
//   - in one process over P virtual ranks (VirtualBackend, virtual_backend.hpp), for lbsim and tests;
//   - over MPI, one rank per process (the live backend: active messages, run_until_quiet = the
//     termination of an epoch, allreduce = an MPI reduction).
//
// Why a small abstract class rather than a C++20 concept over backends (the shape of
// DARMA-tasking/LB's comm_traits.h): the backend is chosen at run time (lbsim vs. a live job) and
// strategies are compiled once into tessera_lb instead of being templates in every header. The byte
// level below is virtual; the typed layer on top (Team, Communicator, Handler) is a thin template that
// serializes messages (serialize.hpp) and dispatches to member functions. Virtual-call cost is
// negligible next to a message's serialization.
//
// Collective contract (as for MPI collectives): every process calls the same Team operations in the
// same order; handler registration order is therefore identical everywhere, which is what makes
// handler ids agree across processes without a name table.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/lb/model.hpp"
#include "tessera/lb/serialize.hpp"

namespace tessera::lb::comm {

using HandlerId = std::uint32_t;

enum class ReduceOp { sum, min, max };

// Runs on the destination rank: (destination, source, payload).
using RawHandler = std::function<void(Rank, Rank, std::span<const std::byte>)>;

// What a backend implements: byte messages between ranks plus three collectives.
class Backend {
 public:
  virtual ~Backend() = default;

  // Number of ranks P taking part.
  virtual Rank size() const = 0;
  // Ranks hosted by this process, ascending (live backend: exactly one; virtual: 0..P-1).
  virtual std::span<const Rank> local_ranks() const = 0;

  // Collective. Ids are assigned in call order, so all processes agree on them.
  virtual HandlerId add_handler(RawHandler handler) = 0;
  virtual void remove_handler(HandlerId id) = 0;

  // Runs step(r) for every hosted rank r, in ascending order; work done is charged to r.
  virtual void for_each_local(const std::function<void(Rank)>& step) = 0;
  // Runs step() as rank r if this process hosts r; otherwise does nothing.
  virtual void run_on(Rank r, const std::function<void()>& step) = 0;

  // Queues a message from hosted rank `source` to rank `dest`. Throws std::out_of_range if dest
  // is not in [0, P). May be called from steps and handlers.
  virtual void send(Rank source, Rank dest, HandlerId handler, Payload bytes) = 0;
  // The same bytes to every rank of `dests`, as that many sends. A backend may share one copy
  // among them (the virtual backend does: gossip sends each list to fanout ranks at once).
  virtual void send_to_many(Rank source, std::span<const Rank> dests, HandlerId handler, Payload bytes) {
    for (std::size_t i = 0; i < dests.size(); ++i)
      send(source, dests[i], handler, i + 1 == dests.size() ? std::move(bytes) : bytes);
  }
  // Collective: returns when no message is queued or in flight anywhere.
  virtual void run_until_quiet() = 0;

  // Collective: `values` holds this process's contribution (already reduced over its hosted ranks)
  // and receives the element-wise result over all processes. Lengths must agree everywhere.
  virtual void allreduce(ReduceOp op, std::span<double> values) = 0;
  virtual void allreduce(ReduceOp op, std::span<std::int64_t> values) = 0;
  // Collective: `bytes` is the root process's input and, on return, every process's copy of it.
  virtual void broadcast(Rank root, Payload& bytes) = 0;

  bool hosts(Rank r) const {
    const auto ranks = local_ranks();
    return std::binary_search(ranks.begin(), ranks.end(), r);
  }

  // Which node each rank is on (model.hpp): the live runtime's map, or the one lbsim and the tests
  // give the virtual backend. Empty by default: every rank a node of its own. Strategies read it to
  // charge bytes by node (work_model.hpp) and to shape HierLB's tree.
  const NodeMap& nodes() const { return nodes_; }
  // Throws std::invalid_argument unless `nodes` is empty or has one entry per rank, each >= 0.
  void set_nodes(NodeMap nodes) {
    if (!nodes.node.empty() && nodes.node.size() != static_cast<std::size_t>(size()))
      throw std::invalid_argument("node map of " + std::to_string(nodes.node.size()) + " ranks for a backend of " +
                                  std::to_string(size()) + " ranks");
    for (std::size_t r = 0; r < nodes.node.size(); ++r)
      if (nodes.node[r] < 0)
        throw std::invalid_argument("node map: rank " + std::to_string(r) + " is on node " +
                                    std::to_string(nodes.node[r]) + ", expected a node id >= 0");
    nodes_ = std::move(nodes);
  }

 private:
  NodeMap nodes_;
};

// A typed handler id: messages of type M go to it.
template <class M>
struct Handler {
  HandlerId id = 0;
};

// A message type may be read in place instead of decoded into a copy: a view type V declares
//   using encoded = M;                              // what senders pass (serialized as usual)
//   explicit V(std::span<const std::byte> bytes);   // reads M's encoding; valid during the handler
// and a Handler<V> takes M in send. This spares the receiver an allocation and a copy of every
// vector of the message: TemperedLB's gossip delivers tens of millions of entries per inform stage
// at P = 16,384, most of them only tested against a bitmap or not read at all.
template <class V>
concept ViewMessage = requires(std::span<const std::byte> bytes) {
  typename V::encoded;
  V(bytes);
};

namespace detail {
template <class M>
struct encoded_of {
  using type = M;
};
template <ViewMessage M>
struct encoded_of<M> {
  using type = typename M::encoded;
};
}  // namespace detail

// What a sender passes for a Handler<M>: M itself, or the type M views.
template <class M>
using encoded_t = typename detail::encoded_of<M>::type;

// The balancers' communicator: the view one rank has while it runs a step or a handler (its rank,
// the rank count, the sender of the message being handled) and its way to send. (Named Context
// before 1.0, a name tessera::Context now has alone.)
class Communicator {
 public:
  Communicator(Backend& backend, Rank self, Rank source = no_rank)
      : backend_(&backend), self_(self), source_(source) {}

  Rank rank() const { return self_; }
  Rank size() const { return backend_->size(); }
  // The sender while a handler runs; no_rank in a step.
  Rank source() const { return source_; }

  template <class M>
  void send(Rank dest, Handler<M> handler, const encoded_t<M>& message) {
    backend_->send(self_, dest, handler.id, to_bytes(message));
  }
  // One encoding of `message` for all of `dests`.
  template <class M>
  void send_to_many(std::span<const Rank> dests, Handler<M> handler, const encoded_t<M>& message) {
    if (!dests.empty()) backend_->send_to_many(self_, dests, handler.id, to_bytes(message));
  }
  // The same with `bytes` already an encoded_t<M>'s encoding (serialize.hpp), for a sender that
  // writes it straight from its own state, sized once, rather than copying that into a message.
  template <class M>
  void send_encoded_to_many(std::span<const Rank> dests, Handler<M> handler, Payload bytes) {
    if (!dests.empty()) backend_->send_to_many(self_, dests, handler.id, std::move(bytes));
  }

 private:
  Backend* backend_;
  Rank self_;
  Rank source_;
};

namespace detail {

template <class Method>
struct handler_traits;

template <class L, class M>
struct handler_traits<void (L::*)(Communicator&, const M&)> {
  using local = L;
  using message = M;
};

template <class T>
struct is_vector : std::false_type {};
template <class E>
struct is_vector<std::vector<E>> : std::true_type {};

template <class T>
void combine(ReduceOp op, T& into, const T& value) {
  switch (op) {
    case ReduceOp::sum: into += value; break;
    case ReduceOp::min: into = std::min(into, value); break;
    case ReduceOp::max: into = std::max(into, value); break;
  }
}

}  // namespace detail

// One strategy instance per hosted rank, plus the typed collective operations over them.
// Local must be move-constructible. The Team unregisters its handlers when destroyed.
template <class Local>
class Team {
 public:
  // make(rank) -> Local builds each hosted rank's instance. Collective.
  template <class Make>
  Team(Backend& backend, Make&& make) : backend_(backend) {
    for (Rank r : backend_.local_ranks()) locals_.push_back(std::make_unique<Local>(make(r)));
  }
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  ~Team() {
    for (HandlerId id : handlers_) backend_.remove_handler(id);
  }

  // Registers Method, a `void (Local::*)(Communicator&, const M&)`, as a message handler. Collective.
  template <auto Method>
  Handler<typename detail::handler_traits<decltype(Method)>::message> handler() {
    using traits = detail::handler_traits<decltype(Method)>;
    static_assert(std::is_same_v<typename traits::local, Local>,
                  "the handler must be a member function of this Team's Local type");
    using M = typename traits::message;
    const HandlerId id = backend_.add_handler(
        [this](Rank dest, Rank source, std::span<const std::byte> bytes) {
          Communicator context(backend_, dest, source);
          if constexpr (ViewMessage<M>) {
            const M message(bytes);
            (local(dest).*Method)(context, message);
          } else {
            const M message = from_bytes<M>(bytes);
            (local(dest).*Method)(context, message);
          }
        });
    handlers_.push_back(id);
    return Handler<M>{id};
  }

  // Runs f(Local&, Communicator&) on every hosted rank. Collective.
  template <class F>
  void step(F&& f) {
    backend_.for_each_local([&](Rank r) {
      Communicator context(backend_, r);
      f(local(r), context);
    });
  }

  // Runs f(Local&, Communicator&) as rank r if hosted here. Collective (others do nothing).
  template <class F>
  void step_on(Rank r, F&& f) {
    backend_.run_on(r, [&] {
      Communicator context(backend_, r);
      f(local(r), context);
    });
  }

  void run_until_quiet() { backend_.run_until_quiet(); }

  // Element-wise reduction of contribute(Local&) over all ranks; every rank gets the result.
  // The contribution is a double, an integer, or a std::vector of either (same length on all
  // ranks: std::length_error otherwise). Collective.
  template <class F>
  auto allreduce(ReduceOp op, F&& contribute) {
    using T = std::decay_t<std::invoke_result_t<F&, Local&>>;
    std::vector<T> parts;
    parts.reserve(locals_.size());
    backend_.for_each_local([&](Rank r) { parts.push_back(contribute(local(r))); });
    if constexpr (detail::is_vector<T>::value) {
      using E = typename T::value_type;
      static_assert(std::is_arithmetic_v<E>, "allreduce reduces numbers or vectors of numbers");
      using Wire = std::conditional_t<std::is_floating_point_v<E>, double, std::int64_t>;
      std::vector<Wire> acc(parts.front().begin(), parts.front().end());
      for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i].size() != acc.size()) {
          throw std::length_error("allreduce: ranks contributed vectors of different lengths (" +
                                  std::to_string(acc.size()) + " and " +
                                  std::to_string(parts[i].size()) + ")");
        }
        for (std::size_t k = 0; k < acc.size(); ++k) {
          detail::combine(op, acc[k], static_cast<Wire>(parts[i][k]));
        }
      }
      backend_.allreduce(op, std::span<Wire>(acc));
      return T(acc.begin(), acc.end());
    } else {
      static_assert(std::is_arithmetic_v<T>, "allreduce reduces numbers or vectors of numbers");
      using Wire = std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t>;
      Wire acc = static_cast<Wire>(parts.front());
      for (std::size_t i = 1; i < parts.size(); ++i) {
        detail::combine(op, acc, static_cast<Wire>(parts[i]));
      }
      backend_.allreduce(op, std::span<Wire>(&acc, 1));
      return static_cast<T>(acc);
    }
  }

  // produce(Local&) runs on rank root; every rank gets a copy of its (serializable) result.
  template <class F>
  auto broadcast(Rank root, F&& produce) {
    using T = std::decay_t<std::invoke_result_t<F&, Local&>>;
    Payload bytes;
    backend_.run_on(root, [&] { bytes = to_bytes(produce(local(root))); });
    backend_.broadcast(root, bytes);
    return from_bytes<T>(bytes);
  }

  // The instance of hosted rank r. Throws std::out_of_range if r is not hosted here.
  Local& local(Rank r) {
    const auto ranks = backend_.local_ranks();
    // Every message looks its destination up: where the process hosts ranks 0..n-1 (the virtual
    // backend) the index is the rank, without a binary search over P ranks.
    if (r >= 0 && static_cast<std::size_t>(r) < ranks.size() && ranks[static_cast<std::size_t>(r)] == r) {
      return *locals_[static_cast<std::size_t>(r)];
    }
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), r);
    if (it == ranks.end() || *it != r) {
      throw std::out_of_range("rank " + std::to_string(r) + " is not hosted by this process");
    }
    return *locals_[static_cast<std::size_t>(it - ranks.begin())];
  }

  Backend& backend() { return backend_; }
  Rank size() const { return backend_.size(); }

 private:
  Backend& backend_;
  std::vector<std::unique_ptr<Local>> locals_;
  std::vector<HandlerId> handlers_;
};

}  // namespace tessera::lb::comm
