/// run_in_process: every domain of a problem in this process, each cycle in the order
/// domain.hpp lays out, the exchanges done in memory. The reference the distributed drivers are
/// held to, bit for bit.
#include "tessera/lulesh/serial_run.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <vector>

namespace tessera::lulesh {

namespace {

class InProcess {
 public:
  explicit InProcess(const Problem& problem) : p_(problem.domains_per_side) {
    const int p = p_;
    domains_.reserve(static_cast<std::size_t>(problem.domains()));
    // domain number plane * p * p + row * p + col, as the original's ranks
    for (int plane = 0; plane < p; ++plane)
      for (int row = 0; row < p; ++row)
        for (int col = 0; col < p; ++col) domains_.emplace_back(problem, col, row, plane);
    buffers_.resize(domains_.size());
  }

  std::vector<Domain>& domains() { return domains_; }

  /// Packs on every domain first, then unpacks on every domain: each receives what its
  /// neighbours held before the exchange, as with MPI.
  void exchange(Exchange x) {
    if (domains_.size() == 1) return;
    for (std::size_t i = 0; i < domains_.size(); ++i) {
      for (int d = 0; d < kDirections; ++d) domains_[i].pack(x, d, buffers_[i][d]);
    }
    for (std::size_t i = 0; i < domains_.size(); ++i) {
      Domain& dom = domains_[i];
      std::array<std::span<const Real>, kDirections> received{};
      for (int d = 0; d < kDirections; ++d) {
        if (!dom.receives(x, d)) continue;
        const Offset o = offset(d);
        const std::size_t from = index(dom.col() + o.col, dom.row() + o.row, dom.plane() + o.plane);
        received[d] = buffers_[from][opposite(d)];
      }
      dom.unpack(x, received);
    }
  }

  /// The first fault in domain order, if any.
  Fault fault() const {
    for (const Domain& d : domains_)
      if (d.fault() != Fault::none) return d.fault();
    return Fault::none;
  }

 private:
  std::size_t index(int col, int row, int plane) const {
    return (static_cast<std::size_t>(plane) * p_ + row) * p_ + col;
  }

  int p_;
  std::vector<Domain> domains_;
  std::vector<std::array<std::vector<Real>, kDirections>> buffers_;
};

}  // namespace

SerialResult run_in_process(const Problem& problem, std::int64_t max_cycles) {
  problem.validate();
  InProcess run(problem);
  auto& domains = run.domains();
  run.exchange(Exchange::mass);

  SerialResult result;
  while (!domains.front().finished(max_cycles)) {
    // the original's MPI_Allreduce(MIN) of the proposed step
    Real bound = domains.front().dt_bound();
    for (const Domain& d : domains) bound = std::min(bound, d.dt_bound());
    for (Domain& d : domains) d.time_increment(bound);

    for (Domain& d : domains) d.compute_forces();
    if ((result.fault = run.fault()) != Fault::none) break;
    run.exchange(Exchange::forces);
    for (Domain& d : domains) d.advance_nodes();
    run.exchange(Exchange::position_velocity);
    for (Domain& d : domains) d.compute_gradients();
    if ((result.fault = run.fault()) != Fault::none) break;
    run.exchange(Exchange::gradients);
    for (Domain& d : domains) d.update_elements();
    if ((result.fault = run.fault()) != Fault::none) break;
  }

  const Domain& first = domains.front();
  result.cycles = first.cycle();
  result.origin_energy = first.origin_energy();
  result.symmetry = first.symmetry();
  for (const Domain& d : domains) result.total_energy += d.total_energy();
  return result;
}

}  // namespace tessera::lulesh
