// One rank's turn of TemperedLB's transfer=sequential: Algorithm 2 (seed 003) with the choices of
// LBAF's 2021 transfer stage, which produced the paper's section V tables.

#include <algorithm>

#include "tessera/lb/tempered_transfer.hpp"

namespace tessera::lb::tempered {

namespace {

// The CMF over the peers still remembered; `live` maps its indices back into `peers`.
struct LiveCmf {
  std::vector<std::size_t> live;
  std::vector<Peer> remembered;
  Cmf cmf;

  void build(const std::vector<Peer>& peers, const std::vector<bool>& forgotten, double average,
             TemperedOptions::Cmf kind) {
    live.clear();
    remembered.clear();
    for (std::size_t i = 0; i < peers.size(); ++i) {
      if (forgotten[i]) continue;
      live.push_back(i);
      remembered.push_back(peers[i]);
    }
    cmf.build(remembered, average, kind);
  }
};

}  // namespace

TransferOutcome transfer_in_turn(std::span<const LbObject> objects, double load, double average,
                                 std::vector<Peer>& peers, std::vector<double>& current,
                                 const TemperedOptions& options, Random& random) {
  TransferOutcome out;
  out.load = load;
  const double limit = options.threshold * average;
  if (!(out.load > limit) || peers.empty()) return out;
  std::vector<std::size_t> remaining = order_objects(options.ordering, objects, average, load);
  std::vector<bool> forgotten(peers.size(), false);
  LiveCmf cmf;
  // Rebuilt only after an accepted transfer: a rejection changes neither belief nor load.
  cmf.build(peers, forgotten, average, options.cmf);
  std::size_t n = 0;
  while (out.load > limit && n < remaining.size() && !cmf.live.empty()) {
    const std::size_t drawn = cmf.cmf.sample(random.real());
    if (drawn == Cmf::npos) break;
    const std::size_t peer = cmf.live[drawn];
    const LbObject& object = objects[remaining[n]];
    if (!criterion_holds(options.criterion, current[peer], object.load, average, out.load)) {
      ++out.rejected;
      ++n;
      continue;
    }
    current[peer] += object.load;
    out.load -= object.load;
    out.accepted.push_back(Proposal{remaining[n], peer});
    if (peers[peer].load + object.load > out.load) {
      forgotten[peer] = true;
    } else {
      peers[peer].load += object.load;
    }
    remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(n));
    n = 0;
    cmf.build(peers, forgotten, average, options.cmf);
  }
  return out;
}

}  // namespace tessera::lb::tempered
