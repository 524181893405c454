// --tessera_lb_advise: the balancer advisor (tessera/lb/advisor.hpp) on the LB data this run just
// wrote, its top three options printed on rank 0 with their predicted gain over this run.
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <cstdio>

#include <tessera/lb/advisor.hpp>
#include <tessera/lb/lb_data_io.hpp>

namespace tessera {

std::string Context::print_advice() const {
  try {
    // An elastic run: the rank set it ended on (LbDataFlags::stem).
    const std::filesystem::path stem = options_.lb_data.stem(runtime_->rescales());
    const lb::LbData data = lb::read_lb_data(stem);
    const auto ids = data.phase_ids();
    if (ids.empty()) {
      fmt::print("tessera lb advise: no phases recorded, nothing to advise\n");
      return {};
    }
    const lb::ReplayData replay(data, ids.front(), ids.back());
    lb::CostModel cost;
    cost.fixed_loads_counted = lb_manager_->counts_fixed_loads();
    lb::use_recorded_bandwidth(replay, cost);
    const auto rows = lb::advise(replay, lb::advise_grid(), cost);
    // This run: its phases' recorded time and what balancing cost it.
    const double run_s = replay.recorded_wall_s() + lb_manager_->balancing_s();
    fmt::print("tessera lb advise: this run's {} phases took {:.3f} s ({:.3f} s balancing); the advisor's top three "
               "(lbsim advise --data {}{}):\n",
               replay.phases().size(), run_s, lb_manager_->balancing_s(), stem.string(),
               cost.fixed_loads_counted ? "" : " --fixed-loads ignored");
    for (std::size_t i = 0; i < rows.size() && i < 3; ++i) {
      const auto& row = rows[i];
      const double gain = row.result.predicted_s > 0.0 ? run_s / row.result.predicted_s : 1.0;
      fmt::print("  {}. predicted {:.3f} s, {:.2f}x this run: {}\n", i + 1, row.result.predicted_s, gain,
                 row.option.strategy.empty() ? std::string("no LB (no --tessera_lb_name)") : row.option.flags());
    }
    std::fflush(stdout);
  } catch (const std::exception& e) {
    return fmt::format("--tessera_lb_advise: {}", e.what());
  }
  return {};
}

}  // namespace tessera
