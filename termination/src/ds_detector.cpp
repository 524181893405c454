// Dijkstra-Scholten termination for rooted epochs (Dijkstra and Scholten, IPL 1980).
//
// Each rank's deficit counts its messages of the epoch (and inner epochs it opened) not yet
// acknowledged. An engaged non-root rank acknowledges its parent when its deficit reaches zero
// after its handlers ran; the root's epoch ends when it has finished and its deficit is zero.
#include "epoch_table.hpp"

#include <tessera/runtime/objgroup.hpp>

namespace tessera::detail {

void EpochTable::ds_ack(EpochId epoch, std::uint64_t count) {
  EpochRecord& rec = record(epoch);
  rec.deficit -= static_cast<std::int64_t>(count);
  if (rec.deficit < 0) fatal("{} received more acknowledgements than it sent messages", epoch_name(epoch));
  ds_check(rec);
}

void EpochTable::ds_check(EpochRecord& rec) {
  if (rec.deficit != 0) return;
  if (rt_.rank() == epoch_root(rec.id)) {
    if (rec.finished && !rec.terminated) {
      rec.terminated = true;
      end_epoch(rec.id);
    }
    return;
  }
  // Not while a handler is still running on this rank: it may yet send in the epoch.
  if (rec.engaged && ack_to_.empty()) {
    send_system<&EpochTable::ds_ack>(rec.ds_parent, rec.id, std::uint64_t{1});
    // Disengaged with nothing outstanding: this rank holds no state for the epoch until a
    // later message engages it again.
    if (rec.callbacks.empty() && !rec.opened) {
      epochs_.erase(rec.id);
      --open_epochs_;
    } else {
      rec.engaged = false;
      rec.ds_parent = -1;
    }
  }
}

}  // namespace tessera::detail
