// Four-counter waves for collective epochs by recursive doubling (a butterfly), instead of a
// tree: every rank learns the wave's sums after log2(P) exchanges and decides for itself, so a
// wave needs no request going down and an ended epoch needs no notice coming back. With P' the
// largest power of two <= P, a rank r >= P' folds its counts into r - P' first and is told the
// sums after the exchanges. All ranks see the same sums, so all make the same decision, and all
// compute the same back-off before the next wave.
//
// Why two equal waves still prove termination: a rank takes its counts for wave k+1 only after it
// knows the sums of wave k, which include every rank's wave-k counts, so every count of wave k+1
// is read after every count of wave k, which is what Mattern's argument needs.
#include "epoch_table.hpp"

#include <tessera/runtime/objgroup.hpp>

#include <algorithm>
#include <bit>

namespace tessera::detail {
namespace {
constexpr int kFoldIn = 0;
constexpr int kFoldOut = 1000;  // the sums sent back to a folded rank
}  // namespace

int EpochTable::butterfly_width() const {
  return static_cast<int>(std::bit_floor(static_cast<unsigned>(rt_.size())));
}

void EpochTable::butterfly_start(EpochRecord& rec) {
  rec.wave_running = true;
  ++rec.wave;
  rec.wave_sent = rec.sent;
  rec.wave_handled = rec.handled;
  const int width = butterfly_width();
  const int r = rt_.rank();
  if (r >= width) {
    send_system<&EpochTable::butterfly_part>(r - width, rec.id, rec.wave, kFoldIn, rec.wave_sent, rec.wave_handled);
    rec.butterfly_round = kFoldOut;
  } else if (r + width < rt_.size()) {
    rec.butterfly_round = kFoldIn;
  } else if (width == 1) {  // a single rank: its counts are the sums
    butterfly_decide(rec, rec.wave_sent, rec.wave_handled);
    return;
  } else {
    rec.butterfly_round = 1;
    butterfly_send_round(rec);
  }
  butterfly_advance(rec);
}

void EpochTable::butterfly_send_round(EpochRecord& rec) {
  const int partner = rt_.rank() ^ (1 << (rec.butterfly_round - 1));
  send_system<&EpochTable::butterfly_part>(partner, rec.id, rec.wave, rec.butterfly_round, rec.wave_sent,
                                           rec.wave_handled);
}

void EpochTable::butterfly_part(EpochId epoch, std::uint64_t wave, int round, std::uint64_t sent,
                                std::uint64_t handled) {
  EpochRecord& rec = record(epoch);
  rec.butterfly_parts.push_back({wave, round, sent, handled});
  if (rec.wave_running) butterfly_advance(rec);
}

void EpochTable::butterfly_advance(EpochRecord& rec) {
  const int width = butterfly_width();
  const int rounds = std::countr_zero(static_cast<unsigned>(width));
  while (rec.wave_running) {
    auto& parts = rec.butterfly_parts;
    auto it = std::find_if(parts.begin(), parts.end(), [&rec](const EpochRecord::ButterflyPart& part) {
      return part.wave == rec.wave && part.round == rec.butterfly_round;
    });
    if (it == parts.end()) return;
    const std::uint64_t sent = it->sent;
    const std::uint64_t handled = it->handled;
    parts.erase(it);
    if (rec.butterfly_round == kFoldOut) {  // a folded rank receives the final sums
      butterfly_decide(rec, sent, handled);
      return;
    }
    rec.wave_sent += sent;
    rec.wave_handled += handled;
    if (rec.butterfly_round < rounds) {
      ++rec.butterfly_round;
      butterfly_send_round(rec);
      continue;
    }
    // Every round done: the sums are complete here.
    const int folded = rt_.rank() + width;
    if (folded < rt_.size())
      send_system<&EpochTable::butterfly_part>(folded, rec.id, rec.wave, kFoldOut, rec.wave_sent, rec.wave_handled);
    butterfly_decide(rec, rec.wave_sent, rec.wave_handled);
    return;
  }
}

void EpochTable::butterfly_decide(EpochRecord& rec, std::uint64_t sent, std::uint64_t handled) {
  rec.wave_running = false;
  ++rec.waves_run;
  // A silent wave (nothing sent or handled anywhere) ends the epoch on its own: every rank
  // answered after finishing, and could only send in the epoch again from one of its handlers.
  const bool silent = sent == 0 && handled == 0;
  if (silent || (sent == handled && sent == rec.last_sent && handled == rec.last_handled)) {
    end_epoch(rec.id);
    return;
  }
  schedule_next_wave(rec, sent, handled);
}

}  // namespace tessera::detail
