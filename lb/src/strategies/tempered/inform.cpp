// The inform stage (seed 003, Algorithm 1): underloaded ranks gossip their loads.

#include <algorithm>
#include <cmath>

#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

void TemperedRank::reset_knowledge() {
  // The same test as propose's (the load does not change before it); with transfer=sequential a
  // rank's load changes during the turns, so every rank may transfer.
  inform_.transferring = shared_->options->transfer == TemperedOptions::Transfer::sequential ||
                  value() > shared_->options->threshold * shared_->average;
  // Last iteration's lists go back unless this rank transfers again (then they are reused).
  if (inform_.transferring) {
    known_.clear();
  } else {
    known_.release();
  }
  known_.track_headroom(shared_->limited);
  known_.track_blocks(shared_->blocks);
  // The salt of the bottom-k sample, drawn only under a cap (no stream to seed otherwise).
  const auto cap = static_cast<std::size_t>(shared_->options->known_cap_for(shared_->size));
  known_.limit(cap, cap != 0 ? stream(Stage::knowledge, 0).bits() : 0,
               value() > shared_->options->threshold * shared_->average);
  inform_.reached_round = 0;
  inform_.stepped = -1;
  inform_.early.clear();
  inform_.forwarded.assign(static_cast<std::size_t>(shared_->rounds) + 1, false);
  inform_.forwards_left = std::max(0, shared_->rounds - 1);
}

bool TemperedRank::knowledge_read_later(int round) const {
  if (inform_.transferring) return true;
  // Synchronous rounds: a message of round r is read by the forward of step r, if r < k.
  if (shared_->options->deterministic) return round < shared_->rounds;
  // Asynchronous: any round not forwarded yet may still come (in any order on a live job).
  return inform_.forwards_left > 0;
}

void TemperedRank::inform(comm::Communicator& ctx) {
  const double own = value();
  if (underloaded()) {
    const PeerBlocks blocks = shared_->blocks ? own_blocks() : PeerBlocks{};
    known_.add(rank_, own, shared_->size, headroom(), &blocks);
    Random random = stream(Stage::inform, 0);
    send_gossip(ctx, 1, random);
  }
  if (shared_->options->deterministic) end_step(ctx, 0);
}

void TemperedRank::forward_if_reached(comm::Communicator& ctx, int round) {
  if (inform_.reached_round == round && round < shared_->rounds) {
    Random random = stream(Stage::forward, static_cast<std::uint64_t>(round));
    send_gossip(ctx, round + 1, random);
  }
  end_step(ctx, round);
}

void TemperedRank::end_step(comm::Communicator& ctx, int round) {
  inform_.stepped = round;
  std::vector<std::vector<std::byte>> later;
  for (std::vector<std::byte>& bytes : inform_.early) {
    const GossipView message(bytes);
    if (message.round() <= inform_.stepped + 1) absorb(ctx, message);
    else later.push_back(std::move(bytes));
  }
  inform_.early = std::move(later);
}

void TemperedRank::report_underload(comm::Communicator& ctx) {
  const double own = value();
  if (underloaded())
    ctx.send(0, shared_->underload, LoadReport{own, headroom(), shared_->blocks ? own_blocks() : PeerBlocks{}});
}

void TemperedRank::on_underload(comm::Communicator& ctx, const LoadReport& report) {
  // Loads by rank (+inf where not underloaded), then, with memory limits, headrooms by rank.
  const auto ranks = static_cast<std::size_t>(shared_->size);
  if (inform_.underloads.empty()) inform_.underloads.assign(shared_->limited ? 2 * ranks : ranks, HUGE_VAL);
  inform_.underloads[static_cast<std::size_t>(ctx.source())] = report.load;
  if (shared_->limited) inform_.underloads[ranks + static_cast<std::size_t>(ctx.source())] = report.headroom;
  if (shared_->blocks) {
    if (inform_.underload_blocks.empty()) inform_.underload_blocks.resize(ranks);
    inform_.underload_blocks[static_cast<std::size_t>(ctx.source())] = report.blocks;
  }
}

void TemperedRank::learn_all(const std::vector<double>& underloads, const std::vector<PeerBlocks>& blocks) {
  known_.clear();
  if (!(value() > shared_->options->threshold * shared_->average)) return;
  const auto ranks = static_cast<std::size_t>(shared_->size);
  for (std::size_t r = 0; r < ranks && r < underloads.size(); ++r) {
    if (std::isfinite(underloads[r]))
      known_.add(static_cast<Rank>(r), underloads[r], shared_->size,
                 underloads.size() > ranks ? underloads[ranks + r] : HUGE_VAL, r < blocks.size() ? &blocks[r] : nullptr);
  }
}

void TemperedRank::on_gossip(comm::Communicator& ctx, const GossipView& message) {
  if (shared_->options->deterministic && message.round() > inform_.stepped + 1) {
    inform_.early.emplace_back(message.bytes().begin(), message.bytes().end());
    return;
  }
  absorb(ctx, message);
}

void TemperedRank::absorb(comm::Communicator& ctx, const GossipView& message) {
  // A rank's load does not change during an inform stage, so a rank heard of twice carries the
  // same load both times and the union does not depend on arrival order.
  const std::int32_t heard = message.round();
  if (!knowledge_read_later(heard)) {
    known_.release();
  } else if (static_cast<std::int64_t>(known_.seen()) < shared_->underloaded) {
    known_.merge(message, shared_->size);
  }
  if (shared_->options->deterministic) {
    // Forwarding waits for the round's barrier (forward_if_reached): the union merged by then
    // does not depend on the order messages arrived in.
    inform_.reached_round = std::max(inform_.reached_round, heard);
    return;
  }
  const auto round = static_cast<std::size_t>(heard);
  if (heard >= shared_->rounds || inform_.forwarded[round]) return;
  inform_.forwarded[round] = true;
  --inform_.forwards_left;
  Random random = stream(Stage::forward, round);
  send_gossip(ctx, heard + 1, random);
  if (!knowledge_read_later(heard)) known_.release();
}

void TemperedRank::send_gossip(comm::Communicator& ctx, int round, Random& random) {
  // Never back to a known underloaded rank, nor to itself. Settled first: under a cap the lists
  // hold between cap and 2 cap entries depending on arrival order until then.
  known_.settle();
  const auto targets = known_.sample_unknown(random, shared_->size, rank_,
                                             static_cast<std::size_t>(shared_->options->fanout));
  if (targets.empty()) return;
  // Headrooms are tracked (and so not empty) only under memory limits.
  if (known_.keeps_all()) {
    Knowledge::Forwarded sample;
    known_.sample(sample);
    ctx.send_encoded_to_many(std::span<const Rank>(targets), shared_->gossip,
                             GossipMessage::encode(round, sample.ranks, sample.loads, sample.headrooms,
                                                   known_.tracks_blocks() ? &sample.blocks : nullptr));
    return;
  }
  const std::vector<PeerBlocks> blocks = known_.tracks_blocks() ? known_.all_blocks() : std::vector<PeerBlocks>{};
  ctx.send_encoded_to_many(std::span<const Rank>(targets), shared_->gossip,
                           GossipMessage::encode(round, known_.ranks(), known_.loads(), known_.headrooms(),
                                                 known_.tracks_blocks() ? &blocks : nullptr));
}

}  // namespace tessera::lb::tempered
