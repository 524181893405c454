// lbsim's outputs: the per-iteration table of seed 003 section V, and one JSON line.

#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "app.hpp"

namespace tessera::lbsim::app {

void print_table(std::ostream& out, const Run& run, bool stats) {
  const SimResult& r = run.result;
  // The nodes are named only when some node holds several ranks.
  const std::string nodes = run.nodes < r.before.count ? fmt::format(" on {} nodes", run.nodes) : std::string();
  out << fmt::format("lbsim: {} ranks{}, {} objects, phase {} of {}\n", r.before.count, nodes, run.objects, run.phase,
                     run.source);
  if (stats) {
    out << fmt::format("{:>8} {:>6} {:>12} {:>11} {:>11} {:>11} {:>11} {:>9}\n", "phase", "count", "sum", "min",
                       "avg", "max", "std", "I");
    for (const auto& p : run.phases) {
      out << fmt::format("{:>8} {:>6} {:>12.6g} {:>11.5g} {:>11.5g} {:>11.5g} {:>11.5g} {:>9.4g}\n", p.phase,
                         p.work.count, p.work.sum, p.work.min, p.work.avg(), p.work.max, p.work.std(),
                         p.work.imbalance());
    }
  }
  if (!run.leaving.empty())
    out << fmt::format("shrink: ranks {} leave; objects left on them: {} (not migratable)\n", fmt::join(run.leaving, ","),
                       run.left_on_leaving);
  if (run.reshape)
    out << fmt::format("split {} objects into {} pieces; merged {} objects into {}\n", run.reshape->splits,
                       run.reshape->pieces, run.reshape->merged, run.reshape->merges);
  // Bounds are of work, like the figures beside them; with beta > 0 only the maximum has one.
  const std::string bound = r.lower_bound ? fmt::format("lower bound I {:.4g}", *r.lower_bound)
                                          : fmt::format("lower bound of max work {:.6g}, none of I with beta > 0",
                                                        r.lower_bound_max_work);
  if (run.strategy.empty()) {
    out << fmt::format("rank work: max {:.6g}, avg {:.6g}, I {:.4g}; {}\n", r.before.max, r.before.avg(),
                       r.before.imbalance(), bound);
    return;
  }
  out << fmt::format("strategy: {}\n", run.strategy);
  if (r.iterations) {
    // Transfers are gross: an object passed on twice, or back, counts at each step, while the
    // migrations below are net (objects that end on another rank than they started on).
    out << fmt::format("{:>5} {:>9} {:>10} {:>10} {:>10} {:>10}\n", "trial", "iteration", "transfers", "rejected",
                       "rejected%", "I");
    out << fmt::format("{:>5} {:>9} {:>10}\n", "", "", "(gross)");
    out << fmt::format("{:>5} {:>9} {:>10} {:>10} {:>10} {:>10.4g}\n", "-", 0, "-", "-", "-",
                       r.iterations->initial_imbalance);
    for (const auto& it : r.iterations->iterations) {
      const std::int64_t proposed = it.transfers + it.rejected;
      const double rate = proposed > 0 ? 100.0 * static_cast<double>(it.rejected) / static_cast<double>(proposed) : 0.0;
      out << fmt::format("{:>5} {:>9} {:>10} {:>10} {:>10.2f} {:>10.4g}\n", it.trial, it.iteration, it.transfers,
                         it.rejected, rate, it.imbalance);
    }
  }
  out << fmt::format("I: {:.4g} -> {:.4g} ({}); {} net migrations; strategy {:.3f} s\n", r.before.imbalance(),
                     r.after.imbalance(), bound, r.migrations, r.strategy_s);
  if (r.iterations && r.iterations->stopped_at_bound) out << "stopped at the lower bound: no placement can do better\n";
  const Traffic& t = r.traffic;
  out << fmt::format("traffic: {} messages, {} bytes; per rank at most {} messages and {} bytes sent, {} and {} "
                     "received (rank 0, a tree's root: {} and {}); {} rounds on the critical path\n",
                     t.messages, t.bytes, t.max_messages_sent, t.max_bytes_sent, t.max_messages_received,
                     t.max_bytes_received, t.root_messages_received, t.root_bytes_received, t.rounds);
  out << fmt::format("modelled wall time: {:.4g} s (latency {:.3g} s, bandwidth {:.3g} bytes/s; busiest rank {} "
                     "computes {:.4g} s)\n",
                     modelled_seconds(t, run.network), run.network.latency_s, run.network.bandwidth_Bps,
                     t.busiest_rank, t.busiest_rank_s);
  if (r.limited) {
    std::int64_t refused = 0;
    if (r.iterations) {
      for (const auto& it : r.iterations->iterations) refused += it.rejected_memory;
    }
    out << fmt::format("memory: {} ranks over their limit before, {} after; {} transfers refused for memory\n",
                       r.memory_violations_before, r.memory_violations_after, refused);
  }
}

std::string json_line(const Run& run) {
  const SimResult& r = run.result;
  nlohmann::ordered_json j;
  j["initial_imbalance"] = r.before.imbalance();
  j["final_imbalance"] = r.after.imbalance();
  j["lower_bound_imbalance"] = r.lower_bound ? nlohmann::ordered_json(*r.lower_bound) : nlohmann::ordered_json();
  j["lower_bound_max_work"] = r.lower_bound_max_work;
  j["nodes"] = run.nodes;
  j["migrations"] = r.migrations;
  j["memory_violations_before"] = r.memory_violations_before;
  j["memory_violations_after"] = r.memory_violations_after;
  j["strategy_s"] = r.strategy_s;
  const Traffic& t = r.traffic;
  j["messages"] = t.messages;
  j["bytes"] = t.bytes;
  j["max_messages_sent"] = t.max_messages_sent;
  j["max_messages_received"] = t.max_messages_received;
  j["max_bytes_sent"] = t.max_bytes_sent;
  j["max_bytes_received"] = t.max_bytes_received;
  j["root_messages_received"] = t.root_messages_received;
  j["root_bytes_received"] = t.root_bytes_received;
  j["busiest_rank"] = t.busiest_rank;
  j["busiest_rank_s"] = t.busiest_rank_s;
  j["rounds"] = t.rounds;
  j["latency_s"] = run.network.latency_s;
  j["bandwidth_Bps"] = run.network.bandwidth_Bps;
  j["modelled_s"] = modelled_seconds(t, run.network);
  j["peak_rss_bytes"] = run.peak_rss_bytes;
  j["stopped_at_lower_bound"] = r.iterations ? r.iterations->stopped_at_bound : false;
  if (!run.leaving.empty()) {
    j["leaving"] = run.leaving;
    j["left_on_leaving"] = run.left_on_leaving;
  }
  if (run.reshape) {
    j["splits"] = run.reshape->splits;
    j["pieces"] = run.reshape->pieces;
    j["merges"] = run.reshape->merges;
    j["merged"] = run.reshape->merged;
  }
  j["iterations"] = nlohmann::ordered_json::array();
  if (r.iterations) {
    for (const auto& it : r.iterations->iterations) {
      j["iterations"].push_back({{"iteration", it.iteration}, {"transfers", it.transfers},
                                 {"rejected", it.rejected}, {"imbalance", it.imbalance}, {"trial", it.trial},
                                 {"rejected_memory", it.rejected_memory}, {"swaps", it.swaps}});
    }
  }
  j["phases"] = nlohmann::ordered_json::array();
  for (const auto& p : run.phases) {
    j["phases"].push_back({{"phase", p.phase}, {"count", p.work.count}, {"sum", p.work.sum},
                           {"imbalance", p.work.imbalance()}});
  }
  return j.dump();
}

}  // namespace tessera::lbsim::app
