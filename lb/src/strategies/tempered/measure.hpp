#pragma once
// TemperedLB's transfer stage written once over what it evens out: TRANSFER (seed 003, Algorithm 2
// lines 1-19) for the sender and the admission of arrivals for the receiver, each a template over a
// measure of a rank's value: load (seconds, seed 003; its sender and receiver are below) or
// CCM-LB's work model (Pebay et al. 2023: work = alpha x load + communication and homing terms,
// seconds, under a memory limit in bytes; work_measure.hpp). What changes with the measure is each test's arithmetic, kept as each measure
// has always written it (`object < load - peer` is not `peer + object < load` in floating point),
// never the order of draws, decisions or sends.
//
// A Sender, for TRANSFER (transfer_over below), with `peers` the ranks it proposes to:
//   double value() const                the sender's value l_p now, seconds;
//   marginals() const                   its objects as ORDERTASKS reads them: each object's load is
//                                       what the sender's value falls by when it leaves;
//   bool sent(i) const                  object i already left with an earlier unit (not tried again);
//   std::size_t bound_peer(i, peers)    a peer the object must go to without a draw, or Cmf::npos;
//   Trial offer(i, p, peers)            object i proposed to peer p: what the pair would become;
//   bool fits(t) const                  the peer's memory takes it;
//   bool make_room(t, peers)            when it does not: a swap that makes room (t then moves a
//                                       unit of objects), or false;
//   bool holds(t, peers) const          the criterion (Lemma 1; CCM-LB's work criterion);
//   units send(t, peers)                commits the move, the peer's believed value included, and
//                                       returns the objects it moves, the offered one first;
//   peer_values_only_grow               whether send() only ever raises a peer's value, which lets
//                                       the CMF update in place (Cmf::update) rather than rebuild;
//   void finish(outgoing, peers) const  settles what the proposals carry once all are decided (the
//                                       cluster swaps' shares of memory).
//
// A Receiver, for the admission (TemperedRank::admit_each), of an arrived object `held` decided by
// a sender at value `sender`:
//   bool takes_all() const              admits everything unchecked, in sender order;
//   bool has_room(held) const           its memory takes it;
//   bool accepts(held, sender) const    the criterion, against its own value so far;
//   void take(held)                     counts it in its value;
//   clusters                            whether senders may propose cluster swaps (admit_unit).

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "messages.hpp"
#include "tessera/lb/tempered_transfer.hpp"

namespace tessera::lb::tempered {

// What TRANSFER decided on one rank.
struct Decisions {
  std::vector<Proposal> accepted;   // in decision order; a swap's unit is several, to one peer
  std::vector<double> before;       // aligned: the sender's value when each was decided, seconds
  std::int64_t rejected = 0;        // refused by the criterion
  std::int64_t rejected_memory = 0;  // refused by the peer's memory, and no swap made room
};

// TRANSFER: while the sender's value exceeds threshold x average, try its objects in the chosen
// order, each against a peer drawn from the CMF (one draw of `random` per object tried, unless the
// sender binds it to a peer), and send what the criterion and the peer's memory admit. With
// cmf=normbymax the CMF follows every accepted transfer (line 6), else it is built once (line 4).
template <class Sender>
Decisions transfer_over(Sender& sender, std::vector<Peer>& peers, double average, const TemperedOptions& options,
                        Random& random) {
  Decisions out;
  const double limit = options.threshold * average;
  if (!(sender.value() > limit) || peers.empty()) return out;
  auto order = order_objects(options.ordering, sender.marginals(), average, sender.value());
  if (options.keep_heaviest) keep_heaviest(order, sender.marginals(), average);
  Cmf cmf;
  cmf.build(peers, average, options.cmf);
  for (std::size_t n = 0; n < order.size() && sender.value() > limit; ++n) {
    if (sender.sent(order[n])) continue;
    std::size_t peer = sender.bound_peer(order[n], peers);
    if (peer == Cmf::npos) peer = cmf.sample(random.real());
    if (peer == Cmf::npos) break;
    auto trial = sender.offer(order[n], peer, peers);
    if (!sender.fits(trial)) {
      if (!sender.make_room(trial, peers)) {
        ++out.rejected_memory;
        continue;
      }
    } else if (!sender.holds(trial, peers)) {
      ++out.rejected;
      continue;
    }
    const double before = sender.value();
    for (const std::size_t object : sender.send(trial, peers)) {
      out.accepted.push_back(Proposal{object, peer});
      out.before.push_back(before);
    }
    if (options.cmf == TemperedOptions::Cmf::normbymax) {
      if constexpr (Sender::peer_values_only_grow) {
        cmf.update(peers, peer, average, options.cmf);
      } else {
        cmf.build(peers, average, options.cmf);
      }
    }
  }
  return out;
}

// The sender in load (seed 003): its value is the sum of its objects' loads, a peer's is the load
// it informed plus what was sent to it, and nothing limits memory.
class LoadSender {
 public:
  static constexpr bool peer_values_only_grow = true;
  struct Trial {
    std::size_t object;
    std::size_t peer;
  };

  LoadSender(std::span<const LbObject> objects, double load, double average, TemperedOptions::Criterion criterion)
      : objects_(objects), load_(load), average_(average), criterion_(criterion) {}

  double value() const { return load_; }
  std::span<const LbObject> marginals() const { return objects_; }
  bool sent(std::size_t) const { return false; }  // each object moves alone, tried once
  std::size_t bound_peer(std::size_t, const std::vector<Peer>&) const { return Cmf::npos; }
  Trial offer(std::size_t object, std::size_t peer, const std::vector<Peer>&) const { return {object, peer}; }
  bool fits(const Trial&) const { return true; }
  bool make_room(Trial&, const std::vector<Peer>&) const { return false; }
  bool holds(const Trial& t, const std::vector<Peer>& peers) const {
    return criterion_holds(criterion_, peers[t.peer].load, objects_[t.object].load, average_, load_);
  }
  std::array<std::size_t, 1> send(const Trial& t, std::vector<Peer>& peers) {
    peers[t.peer].load += objects_[t.object].load;
    load_ -= objects_[t.object].load;
    return {t.object};
  }
  void finish(std::map<Rank, TransferMessage>&, const std::vector<Peer>&) const {}

 private:
  std::span<const LbObject> objects_;
  double load_;  // l_p, seconds
  double average_;
  TemperedOptions::Criterion criterion_;
};

// The receiver in load: its own load so far against the criterion with the roles turned round
// (the receiver is the peer, the sender's load when it decided is l_p). Without memory to check,
// admit=all, and the sequential transfer whose turns already judged against current loads, take
// every proposal as sent.
class LoadReceiver {
 public:
  static constexpr bool clusters = false;

  LoadReceiver(double load, const TemperedOptions& options, double average)
      : load_(load),
        average_(average),
        criterion_(options.criterion),
        takes_all_(options.admit == TemperedOptions::Admit::all ||
                   options.transfer == TemperedOptions::Transfer::sequential) {}

  bool takes_all() const { return takes_all_; }
  bool has_room(const Held&) const { return true; }
  bool accepts(const Held& held, double sender) const {
    return criterion_holds(criterion_, load_, held.object.load, average_, sender);
  }
  void take(const Held& held) { load_ += held.object.load; }

 private:
  double load_;  // seconds
  double average_;
  TemperedOptions::Criterion criterion_;
  bool takes_all_;
};

}  // namespace tessera::lb::tempered
