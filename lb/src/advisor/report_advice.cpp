// The advisor's ranking as the Advice section of the HTML report (advisor.hpp, report.hpp).

#include <fmt/format.h>

#include "tessera/lb/advisor.hpp"

namespace tessera::lb {

void add_advice(const LbData& data, std::size_t rows_wanted, const CostModel& cost, ReportOptions& options) {
  const auto ids = data.phase_ids();
  if (ids.empty()) return;  // summarize reports the empty data
  const ReplayData replay(data, ids.front(), ids.back());
  const auto rows = advise(replay, advise_grid(), cost);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    if (i >= rows_wanted && !row.option.strategy.empty()) continue;  // the no-LB row always
    options.advice.push_back(ReportAdvice{i + 1, row.option.label(), row.option.flags(), row.result.predicted_s,
                                          row.gain, row.result.migrations, row.result.lb_s()});
  }
  options.advice_note = fmt::format(
      "Phases {}..{} on {} ranks; migration at {:g} GB/s ({}) and {:g} us per object; strategy time {}; strategies "
      "{} fixed objects' loads; {}.",
      ids.front(), ids.back(), replay.ranks(), cost.bandwidth_Bps / 1e9, cost.bandwidth_source, cost.latency_s * 1e6,
      cost.strategy_s ? fmt::format("{:g} s per run", *cost.strategy_s)
                      : fmt::format("measured on virtual ranks / {}", replay.ranks()),
      cost.fixed_loads_counted ? "see" : "do not see",
      replay.walled() ? "each phase's fixed part from its recorded time (phase_time_s)" : "no phase times recorded");
}

}  // namespace tessera::lb
