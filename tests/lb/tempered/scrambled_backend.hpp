#pragma once
// A test backend hosting all P ranks like VirtualBackend, but delivering queued messages in a
// seeded random order instead of FIFO: it stands for a live job, where arrival order across ranks
// is not under anyone's control. A strategy whose deterministic mode is really order-independent
// produces the same plan on it as on VirtualBackend.
//
// Eager (the third argument): each rank's step is followed at once by the delivery of everything
// pending, before the next rank's step, as when a faster rank's messages reach a slower one that
// has not yet taken the same collective step (a live job under any load).

#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "tessera/lb/comm.hpp"

namespace tessera::lb::testing {

class ScrambledBackend final : public comm::Backend {
 public:
  ScrambledBackend(Rank ranks, std::uint64_t seed, bool eager = false)
      : ranks_(static_cast<std::size_t>(ranks)), order_(seed), eager_(eager) {
    std::iota(ranks_.begin(), ranks_.end(), Rank{0});
  }

  Rank size() const override { return static_cast<Rank>(ranks_.size()); }
  std::span<const Rank> local_ranks() const override { return ranks_; }
  comm::HandlerId add_handler(comm::RawHandler handler) override {
    handlers_.push_back(std::move(handler));
    return static_cast<comm::HandlerId>(handlers_.size() - 1);
  }
  void remove_handler(comm::HandlerId id) override { handlers_.at(id) = nullptr; }
  // Hosted ranks take their steps in descending order, unlike VirtualBackend.
  void for_each_local(const std::function<void(Rank)>& step) override {
    for (auto r = ranks_.rbegin(); r != ranks_.rend(); ++r) {
      step(*r);
      if (eager_) run_until_quiet();
    }
  }
  void run_on(Rank, const std::function<void()>& step) override { step(); }
  void send(Rank source, Rank dest, comm::HandlerId handler, comm::Payload bytes) override {
    if (dest < 0 || dest >= size()) throw std::out_of_range("ScrambledBackend: bad destination");
    pending_.push_back(Envelope{source, dest, handler, std::move(bytes)});
  }
  void run_until_quiet() override {
    while (!pending_.empty()) {
      std::uniform_int_distribution<std::size_t> pick(0, pending_.size() - 1);
      const std::size_t i = pick(order_);
      std::swap(pending_[i], pending_.back());
      Envelope e = std::move(pending_.back());
      pending_.pop_back();
      handlers_.at(e.handler)(e.dest, e.source, e.bytes);
    }
  }
  void allreduce(comm::ReduceOp, std::span<double>) override {}
  void allreduce(comm::ReduceOp, std::span<std::int64_t>) override {}
  void broadcast(Rank, comm::Payload&) override {}

 private:
  struct Envelope {
    Rank source;
    Rank dest;
    comm::HandlerId handler;
    comm::Payload bytes;
  };
  std::vector<Rank> ranks_;
  std::vector<comm::RawHandler> handlers_;
  std::vector<Envelope> pending_;
  std::mt19937_64 order_;
  bool eager_ = false;
};

}  // namespace tessera::lb::testing
