// Four-counter waves (Mattern 1987) for rooted epochs under --tessera_rooted_detection=wave, over
// the spanning tree rooted at the epoch's root (collective epochs use butterfly_waves.cpp).
//
// A wave request travels down the tree; each rank answers its parent with the sums of
// (sent, handled) over its subtree once every child has answered and the rank itself has
// finished its part of the epoch (for a rooted epoch only the root has a part to finish). The root ends the epoch when two consecutive waves return
// the same sums and sent == handled; otherwise it starts the next wave after a back-off.
#include "epoch_table.hpp"

#include <tessera/runtime/objgroup.hpp>

namespace tessera::detail {

void EpochTable::start_wave(EpochRecord& rec) {
  rec.wave_running = true;
  wave_request(rec.id, rec.wave + 1);
}

void EpochTable::wave_request(EpochId epoch, std::uint64_t wave) {
  EpochRecord& rec = record(epoch);
  const auto children = tree_children(epoch);
  rec.wave = wave;
  rec.wave_open = true;
  rec.wave_children_left = children.size();
  rec.wave_sent = 0;
  rec.wave_handled = 0;
  for (int child : children) send_system<&EpochTable::wave_request>(child, epoch, wave);
  try_answer_wave(rec);
}

void EpochTable::wave_reply(EpochId epoch, std::uint64_t wave, std::uint64_t sent, std::uint64_t handled) {
  EpochRecord& rec = record(epoch);
  if (!rec.wave_open || wave != rec.wave)
    fatal("termination wave {} of {} answered out of turn on rank {}", wave, epoch_name(epoch), rt_.rank());
  rec.wave_sent += sent;
  rec.wave_handled += handled;
  --rec.wave_children_left;
  try_answer_wave(rec);
}

void EpochTable::try_answer_wave(EpochRecord& rec) {
  if (!rec.wave_open || rec.wave_children_left > 0) return;
  const bool ready = wave_root(rec.id) != rt_.rank() || rec.finished;
  if (!ready) return;
  rec.wave_open = false;
  const std::uint64_t sent = rec.wave_sent + rec.sent;
  const std::uint64_t handled = rec.wave_handled + rec.handled;
  const int parent = tree_parent(rec.id);
  if (parent >= 0) send_system<&EpochTable::wave_reply>(parent, rec.id, rec.wave, sent, handled);
  else evaluate_wave(rec, sent, handled);
}

void EpochTable::evaluate_wave(EpochRecord& rec, std::uint64_t sent, std::uint64_t handled) {
  ++rec.waves_run;
  rec.wave_running = false;
  // Two equal, balanced waves end the epoch (Mattern). So does a single wave that counted no
  // message at all: a rank answers only after finishing, after which it can send in the epoch
  // only from a handler of the epoch, and such a message would have needed an earlier counted send.
  const bool silent = sent == 0 && handled == 0;
  if (silent || (sent == handled && sent == rec.last_sent && handled == rec.last_handled)) {
    const EpochId epoch = rec.id;
    for (int child : tree_children(epoch)) send_system<&EpochTable::epoch_ended>(child, epoch);
    end_epoch(epoch);
    return;
  }
  schedule_next_wave(rec, sent, handled);
}

void EpochTable::epoch_ended(EpochId epoch) {
  for (int child : tree_children(epoch)) send_system<&EpochTable::epoch_ended>(child, epoch);
  if (find(epoch) == nullptr) record(epoch);  // a rank that never saw the epoch still ends it
  end_epoch(epoch);
}

}  // namespace tessera::detail
