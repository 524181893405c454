#include <tessera/collections/steal/steal_stats.hpp>
#include <tessera/runtime/collectives.hpp>

#include <fmt/format.h>

#include <ostream>

namespace tessera::collections::steal {
namespace {

// Fields per rank in the gathered vector; every count fits a double exactly (< 2^53).
constexpr std::size_t kFields = 9;

}  // namespace

RankStats& RankStats::operator+=(const RankStats& o) {
  tasks_executed += o.tasks_executed;
  steals_attempted += o.steals_attempted;
  steals_successful += o.steals_successful;
  steals_failed += o.steals_failed;
  lifeline_activations += o.lifeline_activations;
  worker_steals += o.worker_steals;
  work_seconds += o.work_seconds;
  steal_seconds += o.steal_seconds;
  cpu_seconds += o.cpu_seconds;
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
  own[7] = static_cast<double>(mine.worker_steals);
  own[8] = mine.cpu_seconds;
  if (rt.rank() == 0) slots.back() = seconds;
  slots = rt.collectives().allreduce(std::move(slots), op::sum{});
  IterationStats stats;
  stats.iteration = iteration;
  stats.seconds = slots.back();
  for (int r = 0; r < rt.size(); ++r) {
    const double* f = &slots[kFields * static_cast<std::size_t>(r)];
    RankStats rank;
    rank.tasks_executed = static_cast<std::uint64_t>(f[0]);
    rank.steals_attempted = static_cast<std::uint64_t>(f[1]);
    rank.steals_successful = static_cast<std::uint64_t>(f[2]);
    rank.steals_failed = static_cast<std::uint64_t>(f[3]);
    rank.lifeline_activations = static_cast<std::uint64_t>(f[4]);
    rank.work_seconds = f[5];
    rank.steal_seconds = f[6];
    rank.worker_steals = static_cast<std::uint64_t>(f[7]);
    rank.cpu_seconds = f[8];
    stats.ranks.push_back(rank);
  }
  return stats;
}

void print_stats(std::ostream& out, const IterationStats& stats) {
  out << fmt::format("iteration {} ({:.3f} s)\n", stats.iteration, stats.seconds);
  out << fmt::format("{:>6} {:>12} {:>10} {:>10} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "rank", "tasks",
                     "attempted", "successful", "failed", "lifeline", "worker", "work s", "steal s", "cpu s");
  auto line = [&out](const std::string& label, const RankStats& r) {
    out << fmt::format("{:>6} {:>12} {:>10} {:>10} {:>8} {:>9} {:>9} {:>9.3f} {:>9.3f} {:>9.3f}\n", label,
                       r.tasks_executed, r.steals_attempted, r.steals_successful, r.steals_failed,
                       r.lifeline_activations, r.worker_steals, r.work_seconds, r.steal_seconds, r.cpu_seconds);
  };
  for (std::size_t r = 0; r < stats.ranks.size(); ++r) line(std::to_string(r), stats.ranks[r]);
  line("total", stats.total());
}

}  // namespace tessera::collections::steal
