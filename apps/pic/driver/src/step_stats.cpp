#include "tessera/pic/driver/step_stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace tessera::pic::driver {

double imbalance(std::span<const double> loads) {
  if (loads.empty()) {
    return 0.0;
  }
  const double max = *std::max_element(loads.begin(), loads.end());
  const double avg = std::accumulate(loads.begin(), loads.end(), 0.0) / static_cast<double>(loads.size());
  return avg > 0.0 ? max / avg - 1.0 : 0.0;
}

StepRecord combine(std::int64_t step, std::span<const RankSample> samples) {
  std::vector<double> wall;
  std::vector<double> cpu;
  std::vector<double> particles;
  for (const RankSample& s : samples) {
    wall.push_back(s.update.wall_s);
    cpu.push_back(s.update.cpu_s);
    particles.push_back(static_cast<double>(s.particles));
  }
  const auto ranks = static_cast<double>(samples.size());
  StepRecord r;
  r.step = step;
  r.max_wall_s = *std::max_element(wall.begin(), wall.end());
  r.avg_wall_s = std::accumulate(wall.begin(), wall.end(), 0.0) / ranks;
  r.max_cpu_s = *std::max_element(cpu.begin(), cpu.end());
  r.avg_cpu_s = std::accumulate(cpu.begin(), cpu.end(), 0.0) / ranks;
  r.imbalance = imbalance(cpu);
  r.particle_imbalance = imbalance(particles);
  return r;
}

StepRecorder::StepRecorder(MPI_Comm comm, std::int64_t print_every) : print_every_(print_every) { set_comm(comm); }

void StepRecorder::set_comm(MPI_Comm comm) {
  comm_ = comm;
  int size = 0;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size);
  gathered_.assign(rank_ == 0 ? static_cast<std::size_t>(size) : 0, RankSample{});
}

void StepRecorder::record(std::int64_t step, const RankSample& mine) {
  // RankSample is three 8-byte fields with no padding, so it travels as bytes.
  static_assert(sizeof(RankSample) == 3 * sizeof(double));
  MPI_Gather(&mine, sizeof(RankSample), MPI_BYTE, gathered_.data(), sizeof(RankSample), MPI_BYTE, 0, comm_);
  if (rank_ != 0) {
    return;
  }
  records_.push_back(combine(step, gathered_));
  records_.back().elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (print_every_ > 0 && step % print_every_ == 0) {
    if (step == print_every_) {
      fmt::print("{:>6}  {:>14}  {:>14}  {:>14}  {:>8}  {:>12}\n", "step", "update max (s)",
                 "update avg (s)", "cpu max (s)", "I (cpu)", "I (particles)");
    }
    const StepRecord& r = records_.back();
    fmt::print("{:>6}  {:>14.6f}  {:>14.6f}  {:>14.6f}  {:>8.3f}  {:>12.3f}\n", r.step, r.max_wall_s,
               r.avg_wall_s, r.max_cpu_s, r.imbalance, r.particle_imbalance);
    std::fflush(stdout);
  }
}

}  // namespace tessera::pic::driver
