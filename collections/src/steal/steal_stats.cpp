#include <tessera/collections/steal/steal_stats.hpp>
#include <tessera/runtime/collectives.hpp>

#include <fmt/format.h>

#include <ostream>

namespace tessera::collections::steal {
namespace {

// Fields per rank in the gathered vector; every count fits a double exactly (< 2^53).
constexpr std::size_t kFields = 7;

}  // namespace

RankStats& RankStats::operator+=(const RankStats& o) {
  tasks_executed += o.tasks_executed;
  steals_attempted += o.steals_attempted;
  steals_successful += o.steals_successful;
  steals_failed += o.steals_failed;
  lifeline_activations += o.lifeline_activations;
  work_seconds += o.work_seconds;
  steal_seconds += o.steal_seconds;
  return *this;
}

RankStats IterationStats::total() const {
  RankStats sum;
  for (const RankStats& r : ranks) sum += r;
  return sum;
}

IterationStats gather_stats(Runtime& rt, std::uint32_t iteration, double seconds, const RankStats& mine) {
  // An allgather as a sum: each rank fills its own slots, the others stay zero.
  std::vector<double> slots(kFields * static_cast<std::size_t>(rt.size()) + 1, 0.0);
  double* own = &slots[kFields * static_cast<std::size_t>(rt.rank())];
  own[0] = static_cast<double>(mine.tasks_executed);
  own[1] = static_cast<double>(mine.steals_attempted);
  own[2] = static_cast<double>(mine.steals_successful);
  own[3] = static_cast<double>(mine.steals_failed);
  own[4] = static_cast<double>(mine.lifeline_activations);
  own[5] = mine.work_seconds;
  own[6] = mine.steal_seconds;
  if (rt.rank() == 0) slots.back() = seconds;
  slots = rt.collectives().allreduce(std::move(slots), op::sum{});
  IterationStats stats;
  stats.iteration = iteration;
  stats.seconds = slots.back();
  for (int r = 0; r < rt.size(); ++r) {
    const double* f = &slots[kFields * static_cast<std::size_t>(r)];
    stats.ranks.push_back(RankStats{static_cast<std::uint64_t>(f[0]), static_cast<std::uint64_t>(f[1]),
                                    static_cast<std::uint64_t>(f[2]), static_cast<std::uint64_t>(f[3]),
                                    static_cast<std::uint64_t>(f[4]), f[5], f[6]});
  }
  return stats;
}

void print_stats(std::ostream& out, const IterationStats& stats) {
  out << fmt::format("iteration {} ({:.3f} s)\n", stats.iteration, stats.seconds);
  out << fmt::format("{:>6} {:>12} {:>10} {:>10} {:>8} {:>9} {:>9} {:>9}\n", "rank", "tasks", "attempted",
                     "successful", "failed", "lifeline", "work s", "steal s");
  auto line = [&out](const std::string& label, const RankStats& r) {
    out << fmt::format("{:>6} {:>12} {:>10} {:>10} {:>8} {:>9} {:>9.3f} {:>9.3f}\n", label, r.tasks_executed,
                       r.steals_attempted, r.steals_successful, r.steals_failed, r.lifeline_activations,
                       r.work_seconds, r.steal_seconds);
  };
  for (std::size_t r = 0; r < stats.ranks.size(); ++r) line(std::to_string(r), stats.ranks[r]);
  line("total", stats.total());
}

}  // namespace tessera::collections::steal
