#pragma once
// The per-rank engine behind Termination: one record per epoch this rank has seen, the
// message observer that counts each epoch's messages, and the system handlers of the detectors:
// collective epochs by butterfly waves (butterfly_waves.cpp); rooted epochs by Dijkstra-Scholten
// (ds_detector.cpp) or by tree waves rooted at the root (wave_detector.cpp).
#include <tessera/termination/termination.hpp>
#include <tessera/runtime/hooks.hpp>

#include "ended_epochs.hpp"
#include "epoch_records.hpp"


namespace tessera::detail {

/// The envelope target of termination's system messages (outside the collective id range).
inline constexpr std::uint64_t kTerminationTarget = 0xfffffffe00000001ull;


class EpochTable final : public MessageObserver, public RescaleListener, public tessera::detail::Resident {
 public:
  EpochTable(Termination& owner, Runtime& rt, const TerminationFlags& flags);
  ~EpochTable() override;

  Termination* owner() const { return owner_; }

  EpochId open(bool collective);
  void finish(EpochId epoch);
  bool terminated(EpochId epoch) const;
  void on_termination(EpochId epoch, std::function<void()> done);
  std::pair<std::uint64_t, std::uint64_t> counts(EpochId epoch) const;
  std::uint64_t waves(EpochId epoch) const;

  void on_send(const Envelope& envelope, int dest) override;
  void on_deliver(const Envelope& envelope, int source) override;
  void on_delivered(const Envelope& envelope, int source) override;
  // A rescale renumbers the ranks, and a rooted epoch's id holds its root's number: the rooted
  // sequences continue above every rank's, so no new id repeats one an old rank used.
  void before_cut(const RankChange& change) override;
  // At an expand: the sequences, so a joining process numbers its next epoch as every rank does.
  void join_state(JoinState& state) const override;

  // System handlers (member handlers on kTerminationTarget).
  void wave_request(EpochId epoch, std::uint64_t wave);
  void wave_reply(EpochId epoch, std::uint64_t wave, std::uint64_t sent, std::uint64_t handled);
  void epoch_ended(EpochId epoch);
  void ds_ack(EpochId epoch, std::uint64_t count);
  void butterfly_part(EpochId epoch, std::uint64_t wave, int round, std::uint64_t sent, std::uint64_t handled);

 private:
  EpochRecord& record(EpochId epoch);
  EpochRecord* find(EpochId epoch);
  bool uses_waves(EpochId epoch) const;
  int wave_root(EpochId epoch) const;
  std::vector<int> tree_children(EpochId epoch) const;
  int tree_parent(EpochId epoch) const;

  void try_answer_wave(EpochRecord& rec);
  void start_wave(EpochRecord& rec);
  void evaluate_wave(EpochRecord& rec, std::uint64_t sent, std::uint64_t handled);
  void ds_check(EpochRecord& rec);
  int butterfly_width() const;
  void butterfly_start(EpochRecord& rec);
  void butterfly_send_round(EpochRecord& rec);
  void butterfly_advance(EpochRecord& rec);
  void butterfly_decide(EpochRecord& rec, std::uint64_t sent, std::uint64_t handled);
  void end_epoch(EpochId epoch);
  // After a wave that did not end the epoch: remembers its sums and when the next wave may start.
  void schedule_next_wave(EpochRecord& rec, std::uint64_t sent, std::uint64_t handled);
  static constexpr double kFirstWaveBackoffUs = 1.0;
  void unit_opened(EpochId parent);
  void unit_ended(EpochId parent);
  bool poll();
  void check_hang(double now);
  [[noreturn]] void report_hang(double idle_seconds);

  template <auto F, class... A>
  void send_system(int dest, A&&... args) {
    tessera::detail::hooks(rt_).send_to<F, invoke_member<F, EpochTable>>(dest, kTerminationTarget, Envelope::kSystem, std::forward<A>(args)...);
  }

  Termination* owner_;
  Runtime& rt_;
  TerminationFlags flags_;
  bool rooted_by_waves_;
  EpochRecords epochs_;
  EndedEpochs ended_;
  std::vector<EpochId> wave_roots_;  // open epochs whose waves this rank starts
  std::vector<int> ack_to_;          // per delivery in progress: whom to acknowledge, -1 none
  std::uint64_t collective_sequence_ = 0;
  std::uint64_t rooted_sequence_ = 0;
  std::size_t open_epochs_ = 0;
  // Hang detection: activity_ counts epoch events (cheaper than reading the clock at each);
  // a check that sees it changed moves last_activity_ to its own time. A check runs every
  // kPollsPerHangCheck scheduler turns, a small fraction of a second even when the rank naps.
  double last_activity_;
  std::uint64_t activity_ = 0;
  std::uint64_t activity_seen_ = 0;
  unsigned polls_since_hang_check_ = 0;
  static constexpr unsigned kPollsPerHangCheck = 256;
  std::size_t poller_;
};

}  // namespace tessera::detail
