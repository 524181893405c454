#include "tessera/pic/driver/summary.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <tessera/runtime/error.hpp>

namespace tessera::pic::driver {

void add_totals(RunSummary& summary) {
  summary.update_max_s = 0.0;
  summary.update_avg_s = 0.0;
  summary.update_max_cpu_s = 0.0;
  double imbalance_sum = 0.0;
  double particle_imbalance_sum = 0.0;
  for (const StepRecord& r : summary.per_step) {
    summary.update_max_s += r.max_wall_s;
    summary.update_avg_s += r.avg_wall_s;
    summary.update_max_cpu_s += r.max_cpu_s;
    imbalance_sum += r.imbalance;
    particle_imbalance_sum += r.particle_imbalance;
  }
  double after_sum = 0.0;
  std::size_t after_count = 0;
  for (const std::int64_t balanced : summary.balanced_steps) {
    for (const StepRecord& r : summary.per_step) {
      if (r.step == balanced + 1) after_sum += r.particle_imbalance, ++after_count;
    }
  }
  summary.mean_imbalance_after_lb = after_count == 0 ? 0.0 : after_sum / static_cast<double>(after_count);
  const auto steps = static_cast<double>(summary.per_step.size());
  summary.mean_imbalance = summary.per_step.empty() ? 0.0 : imbalance_sum / steps;
  summary.mean_particle_imbalance = summary.per_step.empty() ? 0.0 : particle_imbalance_sum / steps;
}

double rate_mparticles_per_s(const RunSummary& s) {
  return s.time.total_s > 0.0 ? 1e-6 * static_cast<double>(s.particles) * static_cast<double>(s.steps) / s.time.total_s
                              : 0.0;
}

void print_summary(const RunSummary& s) {
  const Breakdown& b = s.time.breakdown;
  fmt::print("summary\n");
  fmt::print("  time to solution (s)       {:.6f} wall, {:.6f} thread CPU (first step to verified end, slowest "
             "rank); set-up {:.6f}\n",
             s.time.total_s, s.time.total_cpu_s, s.time.init_s);
  fmt::print("  rate (Mparticles moved/s)  {:.3f}\n", rate_mparticles_per_s(s));
  fmt::print("  where it went (rank {}, s)  update {:.4f}, exchange {:.4f}, wait {:.4f}, SPMD region {:.4f}, "
             "phase close {:.4f} (LB strategy {:.4f}, migration {:.4f}), checkpoints {:.4f}, re-cut {:.4f}, other {:.4f}\n",
             s.time.breakdown_rank, b.update_s, b.exchange_s, b.wait_s, b.spmd_s, b.phase_close_s, b.lb_strategy_s,
             b.lb_migration_s, b.checkpoint_s, b.recut_s, s.time.other_s());
  fmt::print("  mode                       {}\n", s.mode);
  fmt::print("  balancer                   {}\n", s.lb);
  if (s.rescales > 0)
    fmt::print("  ranks                      {} -> {} ({} elastic rescale(s)) on {} host(s)\n", s.ranks, s.final_ranks,
               s.rescales, s.hosts);
  else
    fmt::print("  ranks                      {} on {} host(s)\n", s.ranks, s.hosts);
  fmt::print("  steps                      {}\n", s.steps);
  fmt::print("  particles                  {}\n", s.particles);
  fmt::print("  validation                 {}\n", s.validated ? "passed" : "FAILED");
  fmt::print("  update, slowest rank (s)   {:.6f} wall, {:.6f} thread CPU\n", s.update_max_s, s.update_max_cpu_s);
  fmt::print("  update, average rank (s)   {:.6f} wall\n", s.update_avg_s);
  fmt::print("  mean I                     {:.4f} (thread CPU), {:.4f} (particles)\n", s.mean_imbalance,
             s.mean_particle_imbalance);
  fmt::print("  LB time (s)                {:.6f}\n", s.lb_s);
  fmt::print("  migrations                 {} in {} balanced phase(s)\n", s.migrations, s.balanced_phases);
  fmt::print("  color re-cuts              {}\n", s.recuts);
  fmt::print("  color splits, merges       {}, {}\n", s.splits, s.merges);
  fmt::print("  mean I after balancing     {:.4f} (particles, the step after each)\n", s.mean_imbalance_after_lb);
}

std::string summary_json(const RunSummary& s, const Options& options) {
  nlohmann::ordered_json j;
  j["mode"] = s.mode;
  j["lb"] = s.lb;
  j["ranks"] = s.ranks;
  j["final_ranks"] = s.final_ranks;
  j["rescales"] = s.rescales;
  j["rescale_stages"] = nlohmann::json::array();  // each as its statistics line's JSON (context/elastic.hpp)
  for (const std::string& stages : s.rescale_stages) j["rescale_stages"].emplace_back(nlohmann::json::parse(stages));
  j["hosts"] = s.hosts;
  j["steps"] = s.steps;
  j["particles"] = s.particles;
  j["validated"] = s.validated;
  j["update_max_s"] = s.update_max_s;
  j["update_avg_s"] = s.update_avg_s;
  j["update_max_cpu_s"] = s.update_max_cpu_s;
  j["mean_imbalance"] = s.mean_imbalance;
  j["lb_s"] = s.lb_s;
  j["migrations"] = s.migrations;
  j["mean_imbalance_particles"] = s.mean_particle_imbalance;
  j["L"] = options.problem.grid_size;
  j["k"] = options.problem.k;
  j["m"] = options.problem.m;
  j["distribution"] = options.problem.distribution.describe();
  j["total_s"] = s.time.total_s;
  j["init_s"] = s.time.init_s;
  j["total_cpu_s"] = s.time.total_cpu_s;
  j["rate_mparticles_per_s"] = rate_mparticles_per_s(s);
  j["balanced_phases"] = s.balanced_phases;
  const Breakdown& b = s.time.breakdown;
  j["breakdown"] = {{"rank", s.time.breakdown_rank}, {"update_s", b.update_s},
                    {"exchange_s", b.exchange_s}, {"wait_s", b.wait_s},
                    {"spmd_s", b.spmd_s},         {"phase_close_s", b.phase_close_s},
                    {"lb_strategy_s", b.lb_strategy_s}, {"lb_migration_s", b.lb_migration_s},
                    {"checkpoint_s", b.checkpoint_s}, {"recut_s", b.recut_s}, {"other_s", s.time.other_s()}};
  j["recuts"] = s.recuts;
  j["splits"] = s.splits;
  j["merges"] = s.merges;
  j["mean_imbalance_after_lb"] = s.mean_imbalance_after_lb;
  return j.dump();
}

void write_step_log(const std::string& path, const std::vector<StepRecord>& records) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    throw InputError(fmt::format("--step_log {}: cannot open the file for writing", path));
  }
  fmt::print(file, "step,update_max_s,update_avg_s,update_max_cpu_s,update_avg_cpu_s,imbalance,imbalance_particles,elapsed_s\n");
  for (const StepRecord& r : records) {
    fmt::print(file, "{},{},{},{},{},{},{},{}\n", r.step, r.max_wall_s, r.avg_wall_s, r.max_cpu_s, r.avg_cpu_s,
               r.imbalance, r.particle_imbalance, r.elapsed_s);
  }
  std::fclose(file);
}

}  // namespace tessera::pic::driver
