// Epoch bookkeeping shared by both detectors: opening, finishing, counting, ending, nesting.
#include "epoch_table.hpp"

#include <tessera/runtime/objgroup.hpp>
#include <tessera/runtime/hooks.hpp>
#include <tessera/runtime/spanning_tree.hpp>
#include <tessera/runtime/timer.hpp>

#include <algorithm>
#include <cstring>

namespace tessera::detail {

EpochTable::EpochTable(Termination& owner, Runtime& rt, const TerminationFlags& flags)
    : owner_(&owner),
      rt_(rt), flags_(flags), rooted_by_waves_(flags.rooted_detection == "wave"), last_activity_(wall_time()) {
  tessera::detail::hooks(rt_).register_target(kTerminationTarget, this);
  tessera::detail::hooks(rt_).set_observer(this);
  poller_ = tessera::detail::hooks(rt_).add_poller([this] { return poll(); });
  tessera::detail::hooks(rt_).add_rescale_listener(this);
  if (const std::span<const std::byte> joined = rt_.joined_state("termination"); !joined.empty()) {
    std::uint64_t sequences[2];
    if (joined.size() != sizeof sequences) fatal("a joining process received a malformed termination state");
    std::memcpy(sequences, joined.data(), sizeof sequences);
    collective_sequence_ = sequences[0];
    rooted_sequence_ = sequences[1];
  }
}

void EpochTable::join_state(JoinState& state) const {
  const std::uint64_t sequences[2] = {collective_sequence_, rooted_sequence_};
  const auto* raw = reinterpret_cast<const std::byte*>(sequences);
  state["termination"].assign(raw, raw + sizeof sequences);
}

void EpochTable::before_cut(const RankChange&) {
  std::uint64_t highest = 0;
  MPI_Allreduce(&rooted_sequence_, &highest, 1, MPI_UINT64_T, MPI_MAX, rt_.comm());
  rooted_sequence_ = highest;
}

EpochTable::~EpochTable() {
  tessera::detail::hooks(rt_).remove_rescale_listener(this);
  tessera::detail::hooks(rt_).remove_poller(poller_);
  tessera::detail::hooks(rt_).set_observer(nullptr);
  tessera::detail::hooks(rt_).unregister_target(kTerminationTarget);
}

EpochRecord* EpochTable::find(EpochId epoch) { return epochs_.find(epoch); }

EpochRecord& EpochTable::record(EpochId epoch) {
  auto [rec, inserted] = epochs_.find_or_add(epoch);
  if (inserted) {
    if (ended_.contains(epoch)) fatal("a message was sent into {}, which has already ended", epoch_name(epoch));
    ++open_epochs_;
  }
  return *rec;
}

bool EpochTable::uses_waves(EpochId epoch) const { return !is_rooted_epoch(epoch) || rooted_by_waves_; }
int EpochTable::wave_root(EpochId epoch) const { return epoch_root(epoch); }
std::vector<int> EpochTable::tree_children(EpochId epoch) const {
  return spanning_tree_children(rt_.rank(), wave_root(epoch), rt_.size(), rt_.flags().tree_fanout);
}
int EpochTable::tree_parent(EpochId epoch) const {
  return spanning_tree_parent(rt_.rank(), wave_root(epoch), rt_.size(), rt_.flags().tree_fanout);
}

EpochId EpochTable::open(bool collective) {
  const EpochId epoch = collective ? make_collective_epoch(++collective_sequence_)
                                   : make_rooted_epoch(rt_.rank(), ++rooted_sequence_);
  EpochRecord& rec = record(epoch);
  if (rec.opened) fatal("{} was opened twice on rank {}", epoch_name(epoch), rt_.rank());
  rec.opened = true;
  if (Tracer* tracer = rt_.tracer()) [[unlikely]]
    tracer->async_begin("epoch", collective ? "collective epoch" : "rooted epoch", epoch);
  rec.parent = rt_.current_epoch();
  unit_opened(rec.parent);
  // Every rank starts the butterfly waves of a collective epoch; the root those of a rooted one.
  if (uses_waves(epoch) && (!is_rooted_epoch(epoch) || wave_root(epoch) == rt_.rank()))
    wave_roots_.push_back(epoch);
  ++activity_;
  return epoch;
}

void EpochTable::finish(EpochId epoch) {
  EpochRecord* rec = find(epoch);
  if (rec == nullptr) {
    if (ended_.contains(epoch)) fatal("{} was finished after it had already ended", epoch_name(epoch));
    fatal("{} was finished on rank {}, which never opened it", epoch_name(epoch), rt_.rank());
  }
  if (!rec->opened) fatal("{} was finished on rank {}, which never opened it", epoch_name(epoch), rt_.rank());
  if (rec->finished) fatal("{} was finished twice on rank {}", epoch_name(epoch), rt_.rank());
  rec->finished = true;
  if (!is_rooted_epoch(epoch)) butterfly_start(*rec);
  else if (uses_waves(epoch)) try_answer_wave(*rec);
  else ds_check(*rec);
}

bool EpochTable::terminated(EpochId epoch) const { return ended_.contains(epoch); }

void EpochTable::on_termination(EpochId epoch, std::function<void()> done) {
  if (terminated(epoch)) {
    rt_.post_local(std::move(done));
    return;
  }
  record(epoch).callbacks.push_back(std::move(done));
}

std::pair<std::uint64_t, std::uint64_t> EpochTable::counts(EpochId epoch) const {
  const EpochRecord* rec = epochs_.find(epoch);
  return rec == nullptr ? std::pair<std::uint64_t, std::uint64_t>{0, 0} : std::pair{rec->sent, rec->handled};
}

std::uint64_t EpochTable::waves(EpochId epoch) const {
  const EpochRecord* rec = epochs_.find(epoch);
  return rec == nullptr ? 0 : rec->waves_run;
}

void EpochTable::on_send(const Envelope& envelope, int) {
  if (envelope.epoch == kGlobalEpoch) return;
  EpochRecord& rec = record(envelope.epoch);
  ++rec.sent;
  if (!uses_waves(envelope.epoch)) ++rec.deficit;
}

void EpochTable::on_deliver(const Envelope& envelope, int source) {
  if (envelope.epoch == kGlobalEpoch || uses_waves(envelope.epoch)) {
    ack_to_.push_back(-1);
    return;
  }
  // Dijkstra-Scholten: the first message that engages this rank makes its sender the parent,
  // and its acknowledgement waits until this rank disengages.
  EpochRecord& rec = record(envelope.epoch);
  if (rt_.rank() != epoch_root(envelope.epoch) && !rec.engaged) {
    rec.engaged = true;
    rec.ds_parent = source;
    ack_to_.push_back(-1);
  } else {
    ack_to_.push_back(source);
  }
}

void EpochTable::on_delivered(const Envelope& envelope, int) {
  const int ack_to = ack_to_.back();
  ack_to_.pop_back();
  if (envelope.epoch == kGlobalEpoch) return;
  ++activity_;
  EpochRecord& rec = record(envelope.epoch);
  ++rec.handled;
  if (uses_waves(envelope.epoch)) return;
  if (ack_to >= 0) send_system<&EpochTable::ds_ack>(ack_to, envelope.epoch, std::uint64_t{1});
  ds_check(rec);
}

void EpochTable::unit_opened(EpochId parent) {
  if (parent == kGlobalEpoch) return;
  EpochRecord& rec = record(parent);
  ++rec.sent;
  if (!uses_waves(parent)) ++rec.deficit;
}

void EpochTable::unit_ended(EpochId parent) {
  if (parent == kGlobalEpoch) return;
  EpochRecord& rec = record(parent);
  ++rec.handled;
  if (!uses_waves(parent)) {
    --rec.deficit;
    ds_check(rec);
  } else if (is_rooted_epoch(parent)) {
    try_answer_wave(rec);
  }
}

void EpochTable::end_epoch(EpochId epoch) {
  EpochRecord* rec = epochs_.find(epoch);
  std::vector<std::function<void()>> callbacks;
  if (!rec->callbacks.empty()) callbacks = std::move(rec->callbacks);
  const bool opened = rec->opened;
  const EpochId parent = rec->parent;
  if (Tracer* tracer = rt_.tracer(); tracer != nullptr && opened) [[unlikely]]
    tracer->async_end("epoch", is_rooted_epoch(epoch) ? "rooted epoch" : "collective epoch", epoch);
  epochs_.erase(epoch);
  --open_epochs_;
  ended_.insert(epoch);
  std::erase(wave_roots_, epoch);
  ++activity_;
  for (auto& done : callbacks) rt_.post_local(std::move(done));
  if (opened) unit_ended(parent);
}

void EpochTable::schedule_next_wave(EpochRecord& rec, std::uint64_t sent, std::uint64_t handled) {
  // Balanced once: confirm at once. Otherwise wait before the next wave, 1 us first and twice as
  // long after each busy one, up to --tessera_wave_backoff_max_us. The first pause is about the
  // time a message takes between two ranks of a node, so a short epoch (a balancer's exchange
  // step) ends within a few microseconds of its last message; it was 10 us, and TemperedLB, which
  // waits for quiet three times an iteration, spent a third less time in its strategy with 1 us
  // (PIC proxy, every phase: 0.107 s against 0.150 s over 300 phases, 5 interleaved runs each).
  rec.last_sent = sent;
  rec.last_handled = handled;
  rec.backoff_us =
      sent == handled ? 0 : std::min(std::max(2 * rec.backoff_us, kFirstWaveBackoffUs), flags_.wave_backoff_max_us);
  rec.next_wave_at = wall_time() + rec.backoff_us * 1e-6;
}

bool EpochTable::poll() {
  if (open_epochs_ == 0) return false;
  // The clock is read only when a wave could start: this runs on every scheduler turn.
  double now = -1;
  bool did = false;
  for (std::size_t i = 0; i < wave_roots_.size(); ++i) {
    EpochRecord* rec = find(wave_roots_[i]);
    if (rec == nullptr || !rec->finished || rec->wave_running) continue;
    if (now < 0) now = wall_time();
    if (now >= rec->next_wave_at) {
      if (is_rooted_epoch(rec->id)) start_wave(*rec);
      else butterfly_start(*rec);
      did = true;
    }
  }
  if (flags_.hang_timeout > 0 && ++polls_since_hang_check_ >= kPollsPerHangCheck) {
    polls_since_hang_check_ = 0;
    check_hang(now < 0 ? wall_time() : now);
  }
  return did;
}

}  // namespace tessera::detail
