// Swap moves in TemperedLB's load-only transfer (the `swaps` key): a rank that could move no
// object alone offers a few heavy ones to its least loaded peer, which may take one of them in
// exchange for lighter objects of its own, chosen so that the larger of the two ranks' loads falls.
//
// Why: with few heavy objects (the drifting patch of the PIC proxy on 2 ranks: two or three colors
// hold the particles) every object of the overloaded rank is heavier than the gap to its peer, so
// Lemma 1's criterion (seed 003: load(o) < l_p - l_x) refuses each one alone and TemperedLB stops
// at I 0.1-0.3 with moves left that would lower the maximum: a heavy object one way and light ones
// back. It extends two swaps: Charm++'s RefineSwapLB (src/ck-ldb/RefineSwapLB.C), a centralized
// refinement that, when no object of the most loaded processor fits on an underloaded one, swaps
// one object of it for one lighter object there (first pair found whose difference the receiver's
// room below the average covers); and the cluster swaps of CCM-LB (Pebay et al. 2023;
// cluster_swap.cpp), one cluster each way, for memory. Here one object goes and several may come
// back, decided by ranks that only see each other through TemperedLB's messages, and the pair is
// the best found rather than the first. The message protocol is the cluster swaps': the proposal
// carries the candidate units to the peer, the peer chooses what to give back against its own
// exact objects, and what it gives back travels in the message that returns the units it did not
// take (TransferMessage, the `returned` handler).
//
// Knowledge. The cluster swaps' sender pre-checks a swap against the clusters each peer gossiped
// (PeerBlocks), because it must split the memory it can take back before any receiver answers.
// Without memory there is nothing to reserve: the sender needs only the gossiped load of the peer
// (the gap), and the receiver, which holds the objects, judges every pair exactly. So the gossip
// stays one load per rank (a tail of object loads per underloaded rank would multiply the inform
// stage's bytes by up to 16 at P = 4096) and a sender offers several candidate units instead of
// guessing one: the peer picks the pair.
//
// The rule (choose_load_swap): over each offered unit u and each set B of the receiver's
// migratable objects tried (none, the best single object, the best pair, a greedy fill by
// descending load), accept when the pair's maximum falls, max(l_p - u + B, l_x + u - B) < l_p
// (grapevine: l_x + u - B < l_ave as well), by at least 5 % of u + B (kSwapGain below), and keep
// the lowest maximum, except that a set of more
// objects must lower it by more than 0.1 % of l_ave and one of fewer may be that much higher (and
// the greedy fill takes an object only if it buys that much); ties go to the lighter unit. The sets
// aim at B = u - (l_p - l_x) / 2, where both loads meet.
//
// Off by default (swaps=0). Measured on the PIC proxy's drifting patch, 2 ranks, 48 colors, on a
// 2-core machine shared with other builds (load 1-5): replaying in lbsim the 68 phases with I > 0.05
// of a recorded auto run, TemperedLB leaves mean I 0.072 (16 phases with no move) without swaps and
// 0.038 (10) with swaps=4, at 12.9 migrations per balancing instead of 8.9. Live, balancing every
// phase on CPU-clock loads, mean I (particles) 0.094 -> 0.076 with migrations 1667 -> 2549; but
// tessera-bench-pic's lb_every_phase_speedup (wall-clock loads) fell in all three before/after
// pairs (1.00 -> 0.83, 1.09 -> 0.86, 1.43 -> 0.88; the first two without the 5 % gain), while its
// auto figure moved within the noise (1.64 / 1.67 / 1.61 -> 1.64 / 1.47 / 1.70).

#include <algorithm>
#include <cmath>
#include <map>

#include "tempered_rank.hpp"

namespace tessera::lb::tempered {

namespace {

// What a swap must lower the pair's maximum by, as a share of the load it moves (the unit and
// what comes back). A swap moves heavy objects, and on the PIC proxy a color's migration costs
// about as much as its load (its particles travel): balancing every phase, swaps for small gains
// doubled the migrations (1685 -> 3881 over 300 phases) and multiplied migration time by 8.
constexpr double kSwapGain = 0.05;

}  // namespace

std::vector<std::size_t> load_swap_offer(std::span<const LbObject> objects, double load, double peer_load,
                                         std::size_t count) {
  std::vector<std::size_t> offer;
  const double gap = load - peer_load;
  if (!(gap > 0.0) || count == 0) return offer;
  // Lighter than the gap: it could move alone (it was refused only against another peer). As heavy
  // as gap + l_x: the peer cannot give back enough to keep its own load below l_p.
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (objects[i].migratable && objects[i].load >= gap && objects[i].load < gap + peer_load) offer.push_back(i);
  }
  std::stable_sort(offer.begin(), offer.end(),
                   [&](std::size_t a, std::size_t b) { return objects[a].load < objects[b].load; });
  if (offer.size() > count) offer.resize(count);
  return offer;
}

LoadSwap choose_load_swap(std::span<const double> offered, std::span<const LbObject> own, double sender_load,
                          double load, TemperedOptions::Criterion criterion, double average) {
  // The receiver's migratable objects by ascending load (ties in storage order).
  std::vector<std::size_t> sorted;
  for (std::size_t i = 0; i < own.size(); ++i) {
    if (own[i].migratable) sorted.push_back(i);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) { return own[a].load < own[b].load; });
  const std::size_t n = sorted.size();
  const auto at = [&](std::size_t k) { return own[sorted[k]].load; };

  // What one more object must buy: 0.1 % of the average load (the tiny colors outside the PIC
  // proxy's patch would otherwise all follow a swap, 40 migrations for 0.5 % of a rank's load).
  const double tolerance = 1e-3 * average;
  LoadSwap best;
  double best_max = HUGE_VAL;
  // `set` holds positions into `sorted`, ascending: B is summed in one order whatever found it.
  const auto consider = [&](std::size_t unit, std::vector<std::size_t> set) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    double back = 0.0;
    for (const std::size_t k : set) back += at(k);
    const double sender_after = sender_load - offered[unit] + back;
    const double after = load + offered[unit] - back;
    const double worst = std::max(sender_after, after);
    const bool holds = (criterion == TemperedOptions::Criterion::grapevine
                            ? after < average && sender_after < sender_load
                            : worst < sender_load) &&
                       sender_load - worst >= kSwapGain * (offered[unit] + back);
    if (!holds) return;
    const std::size_t size = set.size(), best_size = best.back.size();
    const bool better = size < best_size    ? worst < best_max + tolerance
                        : size == best_size ? worst < best_max
                                            : worst < best_max - tolerance;
    if (better) {
      best_max = worst;
      best.unit = unit;
      best.back.clear();
      for (const std::size_t k : set) best.back.push_back(sorted[k]);
      best.sender_after = sender_after;
      best.after = after;
    }
  };

  for (std::size_t u = 0; u < offered.size(); ++u) {
    const double target = offered[u] - 0.5 * (sender_load - load);  // both loads equal
    consider(u, {});
    if (n == 0) continue;
    // The single object nearest the target.
    const auto above = static_cast<std::size_t>(
        std::lower_bound(sorted.begin(), sorted.end(), target, [&](std::size_t i, double t) { return own[i].load < t; }) -
        sorted.begin());
    if (above < n) consider(u, {above});
    if (above > 0) consider(u, {above - 1});
    // The pair whose sum is nearest the target (two pointers over the ascending loads).
    if (n >= 2) {
      std::size_t lo = 0, hi = n - 1, best_lo = 0, best_hi = n - 1;
      double nearest = HUGE_VAL;
      while (lo < hi) {
        const double sum = at(lo) + at(hi);
        if (std::abs(sum - target) < nearest) {
          nearest = std::abs(sum - target);
          best_lo = lo;
          best_hi = hi;
        }
        if (sum < target) {
          ++lo;
        } else {
          --hi;
        }
      }
      consider(u, {best_lo, best_hi});
    }
    // Greedy: heaviest first, each object taken if it brings the sum nearer the target by more
    // than the tolerance.
    std::vector<std::size_t> fill;
    double sum = 0.0;
    for (std::size_t k = n; k-- > 0;) {
      if (std::abs(sum + at(k) - target) < std::abs(sum - target) - tolerance) {
        fill.push_back(k);
        sum += at(k);
      }
    }
    if (fill.size() > 2) consider(u, std::move(fill));
  }
  return best;
}

void TemperedRank::offer_load_swap(comm::Communicator& ctx, double own, const std::vector<Peer>& peers) {
  // The key is load only: in work, memory is what stops a lone move, and cluster swaps answer it.
  const auto count = static_cast<std::size_t>(shared_->options->swaps);
  if (count == 0 || peers.empty() || shared_->modeled) return;
  // The least loaded peer known (the widest gap; ties to the lowest rank, as peers are in rank order).
  std::size_t peer = 0;
  for (std::size_t p = 1; p < peers.size(); ++p) {
    if (peers[p].load < peers[peer].load) peer = p;
  }
  const auto offer = load_swap_offer(held_objects(), own, peers[peer].load, count);
  if (offer.empty()) return;
  TransferMessage message;
  message.offer = true;
  std::vector<bool> leaving(held_.size(), false);
  for (const std::size_t i : offer) {
    message.objects.push_back(held_[i]);
    message.sender_loads.push_back(own);
    leaving[i] = true;
  }
  // The units leave until the peer answers: what it does not take comes back with what it gives.
  std::vector<Held> staying;
  staying.reserve(held_.size() - offer.size());
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (!leaving[i]) staying.push_back(std::move(held_[i]));
  }
  held_ = std::move(staying);
  ctx.send(peers[peer].rank, shared_->proposal, message);
}

void TemperedRank::admit_load_swaps(std::vector<std::pair<Rank, TransferMessage>>& offers,
                                    std::map<Rank, TransferMessage>& back) {
  // Most loaded sender first, as plain proposals are admitted; ties by rank.
  std::stable_sort(offers.begin(), offers.end(), [](const auto& a, const auto& b) {
    const double la = a.second.sender_loads.empty() ? 0.0 : a.second.sender_loads.front();
    const double lb = b.second.sender_loads.empty() ? 0.0 : b.second.sender_loads.front();
    return la != lb ? la > lb : a.first < b.first;
  });
  for (auto& [source, message] : offers) {
    std::vector<double> offered;
    for (const Held& held : message.objects) offered.push_back(held.object.load);
    const std::vector<LbObject> own = held_objects();
    const double sender_load = message.sender_loads.empty() ? 0.0 : message.sender_loads.front();
    const LoadSwap swap =
        choose_load_swap(offered, own, sender_load, load(), shared_->options->criterion, shared_->average);
    std::vector<Held>& returned = back[source].objects;
    if (swap.unit == LoadSwap::npos) {
      for (Held& held : message.objects) returned.push_back(std::move(held));
      continue;
    }
    std::vector<bool> giving(held_.size(), false);
    for (const std::size_t i : swap.back) giving[i] = true;
    std::vector<Held> staying;
    staying.reserve(held_.size());
    for (std::size_t i = 0; i < held_.size(); ++i) {
      if (giving[i]) {
        returned.push_back(std::move(held_[i]));
      } else {
        staying.push_back(std::move(held_[i]));
      }
    }
    held_ = std::move(staying);
    for (std::size_t i = 0; i < message.objects.size(); ++i) {
      if (i == swap.unit) {
        held_.push_back(std::move(message.objects[i]));
      } else {
        returned.push_back(std::move(message.objects[i]));
      }
    }
    counts_.transfers += 1 + static_cast<std::int64_t>(swap.back.size());
    ++counts_.swaps;
  }
  offers.clear();
}

}  // namespace tessera::lb::tempered
