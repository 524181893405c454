#pragma once
// The in-process backend: P virtual ranks in one process, for lbsim and unit tests.
//
// Messages are delivered in waves, so a run is deterministic: the same strategy on the same input
// always sees the same delivery order. A wave is every message queued when it starts, grouped by
// destination rank and, for each destination, in send order; what handlers send during a wave
// forms the next one. Grouping is what a large simulation needs: each rank's state is brought into
// the cache once per wave instead of once per message (at 131,072 ranks, cache misses on the
// receiver were most of lbsim's time). The messages and bytes each rank sends and
// receives are counted; with CpuTiming::on every step and handler run as rank r is also timed with
// the thread's CPU clock and charged to r, and a benchmark reads the busiest rank from this
// accounting, which stands for the time a real machine would spend waiting on that rank (for
// example the root of a centralized strategy). Timing is off by default: the thread CPU clock is
// a system call, two per message, a sixth of lbsim's time at 16,384 ranks. CpuTiming::wall charges
// the monotonic wall clock instead (read without a system call), for a single-threaded simulator on
// a core of its own, such as lbsim.
// Collectives cost nothing here: with all ranks in one process the contribution is the result.
//
// Rounds on the critical path are counted with a Lamport clock per rank: a message leaves at its
// sender's clock + 1 and lifts its receiver's clock to that; a collective (allreduce, broadcast)
// and the end of run_until_quiet (a live backend's termination detection) are each charged as one
// tree wave up and down, 2 ceil(log2 P) rounds after the latest clock, and every rank starts from
// there. The total is what a network's latency multiplies (lbsim's modelled wall time).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tessera/lb/comm.hpp"

namespace tessera::lb::comm {

// Work charged to one virtual rank since construction or the last reset_accounts().
struct RankAccount {
  double cpu_seconds = 0.0;  // time in this rank's steps and handlers: thread CPU (CpuTiming::on) or wall (::wall)
  std::int64_t messages_received = 0;
  std::int64_t bytes_received = 0;
  std::int64_t messages_sent = 0;
  std::int64_t bytes_sent = 0;
};

class VirtualBackend final : public Backend {
 public:
  enum class CpuTiming { off, on, wall };
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
  // Rounds on the critical path since construction or the last reset_accounts() (see above).
  std::int64_t critical_path_rounds() const { return latest_; }
  // Rounds one collective or quiescence wave is charged: 2 ceil(log2 P), 0 on one rank.
  std::int64_t wave_rounds() const { return wave_; }
  Rank busiest_rank() const;                 // most CPU seconds; the lowest rank on ties
  double total_cpu_seconds() const;          // summed over all ranks
  void reset_accounts();

 private:
  struct Envelope {
    Rank source;
    Rank dest;
    HandlerId handler;
    std::int64_t stamp;  // the sender's clock + 1
    std::shared_ptr<const Payload> bytes;  // shared by the envelopes of one send_to_many
  };

  void check_rank(Rank r, const char* what) const;
  std::int64_t stamp(Rank source) { return std::max(clocks_[static_cast<std::size_t>(source)], base_) + 1; }
  void group_by_destination();  // moves queue_ into wave_in_, grouped by destination
  void wave();  // a collective or the end of a quiescence: every clock to latest_ + wave_
  void prefetch_payloads(std::size_t i) const;  // while wave_in_[i] is delivered
  template <class F>
  void charge(Rank r, F&& work);

  std::vector<Rank> ranks_;
  std::vector<RankAccount> accounts_;
  std::vector<RawHandler> handlers_;  // indexed by HandlerId; empty function once removed
  std::vector<Envelope> queue_;   // the next wave, in send order
  std::vector<Envelope> wave_in_;  // the wave being delivered, grouped by destination
  std::vector<std::uint32_t> starts_;  // per destination, where its messages start in wave_in_
  std::vector<std::int64_t> clocks_;  // per rank, lifted lazily to base_
  std::int64_t base_ = 0;             // every clock is at least this (the last wave's end)
  std::int64_t latest_ = 0;           // the largest clock
  std::int64_t wave_ = 0;
  bool delivering_ = false;
  VirtualBackend::CpuTiming timing_ = CpuTiming::off;
};

}  // namespace tessera::lb::comm
