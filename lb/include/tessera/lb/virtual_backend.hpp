#pragma once
// The in-process backend: P virtual ranks in one process, for lbsim and unit tests.
//
// Messages go through one FIFO queue in send order, so a run is deterministic: the same strategy on
// the same input always sees the same delivery order. The messages and bytes each rank sends and
// receives are counted; with CpuTiming::on every step and handler run as rank r is also timed with
// the thread's CPU clock and charged to r, and a benchmark reads the busiest rank from this
// accounting, which stands for the time a real machine would spend waiting on that rank (for
// example the root of a centralized strategy). Timing is off by default: the thread CPU clock is
// a system call, two per message, a sixth of lbsim's time at 16,384 ranks.
// Collectives cost nothing here: with all ranks in one process the contribution is the result.

#include <cstdint>
#include <memory>
#include <deque>
#include <span>
#include <vector>

#include "tessera/lb/comm.hpp"

namespace tessera::lb::comm {

// Work charged to one virtual rank since construction or the last reset_accounts().
struct RankAccount {
  double cpu_seconds = 0.0;  // thread CPU time in this rank's steps and handlers (CpuTiming::on)
  std::int64_t messages_received = 0;
  std::int64_t bytes_received = 0;
  std::int64_t messages_sent = 0;
  std::int64_t bytes_sent = 0;
};

class VirtualBackend final : public Backend {
 public:
  enum class CpuTiming { off, on };
  // Throws std::invalid_argument if ranks < 1, or if `nodes` is neither empty (every rank a node of
  // its own) nor one node id per rank.
  explicit VirtualBackend(Rank ranks, CpuTiming timing = CpuTiming::off, NodeMap nodes = {});

  Rank size() const override { return static_cast<Rank>(ranks_.size()); }
  std::span<const Rank> local_ranks() const override { return ranks_; }

  HandlerId add_handler(RawHandler handler) override;
  void remove_handler(HandlerId id) override;

  void for_each_local(const std::function<void(Rank)>& step) override;
  void run_on(Rank r, const std::function<void()>& step) override;

  void send(Rank source, Rank dest, HandlerId handler, Payload bytes) override;
  void send_to_many(Rank source, std::span<const Rank> dests, HandlerId handler, Payload bytes) override;
  // Delivers queued messages in FIFO order until none is left. Throws std::logic_error if a
  // message names a handler that was removed, or if called from inside a handler.
  void run_until_quiet() override;

  void allreduce(ReduceOp op, std::span<double> values) override;
  void allreduce(ReduceOp op, std::span<std::int64_t> values) override;
  void broadcast(Rank root, Payload& bytes) override;

  const RankAccount& account(Rank r) const;  // throws std::out_of_range for r outside [0, P)
  Rank busiest_rank() const;                 // most CPU seconds; the lowest rank on ties
  double total_cpu_seconds() const;          // summed over all ranks
  void reset_accounts();

 private:
  struct Envelope {
    Rank source;
    Rank dest;
    HandlerId handler;
    std::shared_ptr<const Payload> bytes;  // shared by the envelopes of one send_to_many
  };

  void check_rank(Rank r, const char* what) const;
  template <class F>
  void charge(Rank r, F&& work);

  std::vector<Rank> ranks_;
  std::vector<RankAccount> accounts_;
  std::vector<RawHandler> handlers_;  // indexed by HandlerId; empty function once removed
  std::deque<Envelope> queue_;
  bool delivering_ = false;
  bool timing_ = false;
};

}  // namespace tessera::lb::comm
