// TRANSFER, BUILDCMF and EVALUATECRITERION (seed 003, Algorithm 2): TRANSFER in load is
// measure.hpp's, with the load sender.

#include <algorithm>

#include "measure.hpp"
#include "tessera/lb/tempered_transfer.hpp"

namespace tessera::lb::tempered {

void Cmf::build(std::span<const Peer> peers, double average, TemperedOptions::Cmf kind) {
  scale_ = average;
  if (kind == TemperedOptions::Cmf::normbymax) {
    for (const Peer& peer : peers) scale_ = std::max(scale_, peer.load);
  }
  running_.resize(peers.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    // A peer at or above l_s (possible with cmf=original once the relaxed criterion has pushed
    // its believed load past the average) gets no mass rather than a negative one.
    const double weight = scale_ > 0.0 ? 1.0 - peers[i].load / scale_ : 0.0;
    sum += std::max(0.0, weight);
    running_[i] = sum;
  }
}

void Cmf::update(std::span<const Peer> peers, std::size_t changed, double average, TemperedOptions::Cmf kind) {
  // With normbymax l_s is a maximum: while the grown load stays at or below it, the maximum over
  // all peers is unchanged (no other load moved); past it, every weight changes.
  // The caller's `average` is build()'s. (cmf=original: l_s = l_ave whatever the loads.)
  const bool normbymax = kind == TemperedOptions::Cmf::normbymax;
  const double scale = normbymax ? std::max(average, scale_) : average;
  if (running_.size() != peers.size() || changed >= peers.size() || scale != scale_ ||
      (normbymax && !(peers[changed].load <= scale_))) {
    build(peers, average, kind);
    return;
  }
  double sum = changed == 0 ? 0.0 : running_[changed - 1];
  for (std::size_t i = changed; i < peers.size(); ++i) {
    const double weight = scale_ > 0.0 ? 1.0 - peers[i].load / scale_ : 0.0;
    sum += std::max(0.0, weight);
    running_[i] = sum;
  }
}

std::size_t Cmf::sample(double u) const {
  if (running_.empty() || !(running_.back() > 0.0)) return npos;
  const double target = u * running_.back();
  const auto it = std::upper_bound(running_.begin(), running_.end(), target);
  if (it == running_.end()) return running_.size() - 1;  // u rounding up to the very top
  return static_cast<std::size_t>(it - running_.begin());
}

std::vector<double> Cmf::cumulative() const {
  std::vector<double> phi(running_.size(), 0.0);
  if (running_.empty() || !(running_.back() > 0.0)) return phi;
  for (std::size_t i = 0; i < running_.size(); ++i) phi[i] = running_[i] / running_.back();
  return phi;
}

bool criterion_holds(TemperedOptions::Criterion criterion, double peer_load, double object_load,
                     double average, double load) {
  if (criterion == TemperedOptions::Criterion::grapevine) return peer_load + object_load < average;
  return object_load < load - peer_load;
}

TransferOutcome transfer(std::span<const LbObject> objects, double load, double average,
                         std::vector<Peer>& peers, const TemperedOptions& options, Random& random) {
  LoadSender sender(objects, load, average, options.criterion);
  Decisions decided = transfer_over(sender, peers, average, options, random);
  TransferOutcome out;
  out.accepted = std::move(decided.accepted);
  out.rejected = decided.rejected;
  out.load = sender.value();
  return out;
}

}  // namespace tessera::lb::tempered
