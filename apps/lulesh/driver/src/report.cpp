// tessera-lulesh's output: the original's lines, the port's additions, and the JSON object.
#include "tessera/lulesh/driver/report.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace tessera::lulesh {

namespace {

double grind_us(const Options& o, const Result& r) {
  const double zones = static_cast<double>(o.problem.edge) * o.problem.edge * o.problem.edge;
  return r.cycles > 0 ? r.elapsed_s * 1e6 / static_cast<double>(r.cycles) / zones : 0.0;
}

double fom(const Options& o, const Result& r) {
  const double g = grind_us(o, r) / static_cast<double>(o.problem.domains());
  return g > 0 ? 1000.0 / g : 0.0;
}

}  // namespace

void print_banner(const Options& options, int ranks) {
  if (options.quiet) return;
  const Problem& p = options.problem;
  fmt::print("Running problem size {}^3 per domain until completion\n", p.edge);
  fmt::print("Num domains: {} (global edge {}) on {} rank(s)\n", p.domains(), p.global_edge(), ranks);
  fmt::print("Total number of elements: {}\n\n", p.domains() * p.edge * p.edge * p.edge);
  std::fflush(stdout);
}

void print_result(const Options& options, const Result& r, int ranks) {
  if (!r.restarted_from.empty() && !options.quiet)
    fmt::print("tessera-lulesh: restarted from {} after cycle {}\n", r.restarted_from, r.resumed_after);
  if (!options.quiet) {
    fmt::print("Run completed:\n");
    fmt::print("   Problem size        =  {}\n", options.problem.edge);
    fmt::print("   Domains             =  {}\n", options.problem.domains());
    fmt::print("   Ranks               =  {}\n", ranks);
    fmt::print("   Iteration count     =  {}\n", r.cycles);
    fmt::print("   Final Origin Energy =  {:12.6e}\n", r.origin_energy);
    fmt::print("   Testing Plane 0 of Energy Array on domain 0:\n");
    fmt::print("        MaxAbsDiff   = {:12.6e}\n", r.symmetry.max_abs_diff);
    fmt::print("        TotalAbsDiff = {:12.6e}\n", r.symmetry.total_abs_diff);
    fmt::print("        MaxRelDiff   = {:12.6e}\n\n", r.symmetry.max_rel_diff);
    fmt::print("Elapsed time         = {:10.2f} (s)\n", r.elapsed_s);
    fmt::print("Grind time (us/z/c)  = {:10.8g} (per dom)  ({:10.8g} overall)\n", grind_us(options, r), r.elapsed_s);
    fmt::print("FOM                  = {:10.8g} (z/s)\n", fom(options, r));
    fmt::print("Balancer             =  {} ({} balancing(s), {} migration(s), mean imbalance {:.3f})\n\n",
               r.balancer, r.balancings, r.migrations, r.mean_imbalance);
  }
  if (options.json) fmt::print("{}\n", result_json(options, r, ranks));
  std::fflush(stdout);
}

std::string result_json(const Options& o, const Result& r, int ranks) {
  return fmt::format(
      R"({{"app":"lulesh","ranks":{},"domains":{},"edge":{},"global_edge":{},"regions":{},"balance":{},"cost":{},)"
      R"("iterations":{},"final_origin_energy":{:.17g},"final_origin_energy_hex":"{:a}",)"
      R"("max_abs_diff":{:.17g},"total_abs_diff":{:.17g},"max_rel_diff":{:.17g},"total_energy":{:.17g},)"
      R"("total_energy_hex":"{:a}","elapsed_s":{:.6f},"init_s":{:.6f},"grind_us_per_zone_cycle":{:.6f},)"
      R"("fom_zones_per_s":{:.3f},"balancer":"{}","balancings":{},"migrations":{},"balancing_s":{:.6f},)"
      R"("mean_imbalance":{:.6f},"imbalance_s":{:.6f},"balanced_bound_s":{:.6f},"resumed_after":{}}})",
      ranks, o.problem.domains(), o.problem.edge, o.problem.global_edge(), o.problem.regions, o.problem.balance,
      o.problem.cost, r.cycles, r.origin_energy, r.origin_energy, r.symmetry.max_abs_diff, r.symmetry.total_abs_diff,
      r.symmetry.max_rel_diff, r.total_energy, r.total_energy, r.elapsed_s, r.init_s, grind_us(o, r), fom(o, r),
      r.balancer, r.balancings, r.migrations, r.balancing_s, r.mean_imbalance, r.imbalance_s,
      r.elapsed_s - r.imbalance_s, r.resumed_after);
}

}  // namespace tessera::lulesh
