// tessera-bench-workpool: seed 002's comparison of its two work-pools (Cederman and Tsigas,
// "Dynamic Load Balancing Using Work-Stealing", section 35.4, Figures 35.8, 35.9 and 35.11) on
// this machine's worker threads: static assignment (generations split evenly) against ABP
// deques with work stealing, for four-in-a-row minimax at lookahead 4-8 and octree partitioning
// of 1-8 million Plummer-sphere particles, on 1 and 2 workers.
//
// Each row: tasks_per_ms on the wall clock, peak_tasks (the task storage the run needed: the
// largest generation for static, the deepest deque times the workers for dynamic), cpu_s (the
// run's length on thread CPU time if every worker had its own core: work_pool.hpp says how each
// scheme's is taken) and wall_s. Each configuration runs --repeat times, interleaved with the
// others so that drift in the machine's load spreads over all of them, and the row is the
// fastest run on the wall clock. Every run's answer is checked against a sequential run (same
// move, value and node count; same leaves, depth, checksum and splits); a mismatch exits 1.
// The text lines before the JSON give the ratios the targets are stated in, on the wall clock
// and on CPU time (tasks per CPU-second), and the load average: the cores may be shared.

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tessera/connect4/minimax.hpp"
#include "tessera/octree/partition.hpp"

namespace {

using tessera::collections::steal::WorkPoolRun;
using tessera::collections::steal::WorkPoolScheme;

struct Row {
  std::string app;
  std::int64_t size = 0;
  WorkPoolScheme scheme = WorkPoolScheme::dynamic;
  std::size_t workers = 1;
  WorkPoolRun best;  // the fastest run on the wall clock
  bool measured = false;

  double tasks_per_ms() const { return static_cast<double>(best.tasks) / (best.wall_seconds * 1e3); }
  double tasks_per_cpu_ms() const { return static_cast<double>(best.tasks) / (best.cpu_seconds * 1e3); }
};

// One configuration's run, checked against the sequential answer.
using Measure = std::function<WorkPoolRun(WorkPoolScheme, std::size_t)>;

Measure connect4_measure(const tessera::connect4::Board& board, int lookahead) {
  using namespace tessera::connect4;
  const SearchResult expected = search_sequential(board, lookahead);
  return [board, lookahead, expected](WorkPoolScheme scheme, std::size_t workers) {
    const TaskSearchResult result = search_tasks(board, lookahead, scheme, workers);
    if (result.search.column != expected.column || result.search.value != expected.value ||
        result.search.nodes != expected.nodes) {
      throw std::runtime_error(fmt::format("connect4 lookahead {} {} on {}: move {} value {} nodes {}, sequential "
                                           "search: move {} value {} nodes {}",
                                           lookahead, to_string(scheme), workers, result.search.column + 1,
                                           result.search.value, result.search.nodes, expected.column + 1,
                                           expected.value, expected.nodes));
    }
    return result.run;
  };
}

// `work`: the array partitioned, shared by all sizes and refilled before each run (a run
// reorders it).
Measure octree_measure(std::int64_t particles, std::int64_t leaf_size,
                       const std::shared_ptr<std::vector<tessera::octree::Particle>>& work) {
  using namespace tessera::octree;
  const auto original = std::make_shared<const std::vector<Particle>>(
      make_particles(particles, Distribution::plummer, 1));
  *work = *original;
  const OctreeResult expected = partition_sequential(*work, leaf_size);
  return [original, work, leaf_size, expected, particles](WorkPoolScheme scheme, std::size_t workers) {
    *work = *original;
    const TaskOctreeResult result = partition_tasks(*work, leaf_size, scheme, workers);
    const OctreeResult& tree = result.tree;
    if (tree.leaves != expected.leaves || tree.depth != expected.depth || tree.checksum != expected.checksum ||
        tree.splits != expected.splits || tree.particles_in_leaves != particles) {
      throw std::runtime_error(fmt::format("octree {} {} on {}: {} leaves, depth {}, checksum {:x}; sequential run: "
                                           "{} leaves, depth {}, checksum {:x}",
                                           particles, to_string(scheme), workers, tree.leaves, tree.depth,
                                           tree.checksum, expected.leaves, expected.depth, expected.checksum));
    }
    return result.run;
  };
}

std::string load_average() {
  std::ifstream file("/proc/loadavg");
  std::string one, five, fifteen;
  file >> one >> five >> fifteen;
  return fmt::format("{} {} {}", one, five, fifteen);
}

const Row* find(const std::vector<Row>& rows, const std::string& app, std::int64_t size, WorkPoolScheme scheme,
                std::size_t workers) {
  for (const Row& row : rows) {
    if (row.app == app && row.size == size && row.scheme == scheme && row.workers == workers) return &row;
  }
  return nullptr;
}

// The ratios the targets are stated in, one line per size.
void print_ratios(const std::vector<Row>& rows, const std::vector<std::size_t>& workers) {
  std::cout << "\nratios (wall clock; CPU time in brackets)\n";
  std::map<std::pair<std::string, std::int64_t>, bool> sizes;
  for (const Row& row : rows) sizes[{row.app, row.size}] = true;
  for (const auto& [key, unused] : sizes) {
    const auto& [app, size] = key;
    std::string line = fmt::format("{:9} {:>8}", app, size);
    for (const std::size_t w : workers) {
      const Row* s = find(rows, app, size, WorkPoolScheme::static_assignment, w);
      const Row* d = find(rows, app, size, WorkPoolScheme::dynamic, w);
      if (s == nullptr || d == nullptr) continue;
      line += fmt::format("  dynamic/static {}w {:.2f} [{:.2f}]", w, d->tasks_per_ms() / s->tasks_per_ms(),
                          d->tasks_per_cpu_ms() / s->tasks_per_cpu_ms());
      if (w == workers.back()) {
        line += fmt::format("  storage static/dynamic {:.0f}", static_cast<double>(s->best.peak_tasks) /
                                                                  static_cast<double>(d->best.peak_tasks));
      }
    }
    const Row* one = find(rows, app, size, WorkPoolScheme::dynamic, workers.front());
    const Row* many = find(rows, app, size, WorkPoolScheme::dynamic, workers.back());
    if (one != nullptr && many != nullptr && one != many) {
      line += fmt::format("  dynamic {}w/{}w {:.2f} [{:.2f}]", workers.back(), workers.front(),
                          many->tasks_per_ms() / one->tasks_per_ms(), many->tasks_per_cpu_ms() / one->tasks_per_cpu_ms());
    }
    std::cout << line << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"tessera-bench-workpool: static assignment vs ABP work stealing (seed 002, section 35.4)"};
  std::vector<int> lookaheads = {4, 5, 6, 7, 8};
  std::vector<std::int64_t> particle_counts = {1'000'000, 2'000'000, 4'000'000, 8'000'000};
  std::vector<std::size_t> workers = {1, 2};
  std::string position = "4453326715";
  std::int64_t leaf_size = 16;
  int repeat = 5;
  std::string report = "text";
  cli.add_option("--lookaheads", lookaheads, "Four-in-a-row lookaheads")->delimiter(',')->capture_default_str();
  cli.add_option("--particles", particle_counts, "Octree particle counts (Plummer sphere, seed 1)")
      ->delimiter(',')
      ->capture_default_str();
  cli.add_option("--workers", workers, "Worker counts")->delimiter(',')->capture_default_str();
  cli.add_option("--position", position, "Four-in-a-row position (Pons' notation)")->capture_default_str();
  cli.add_option("--leaf-size", leaf_size, "Octree leaf size")->capture_default_str();
  cli.add_option("--repeat", repeat, "Runs of each configuration; the fastest is reported")->capture_default_str();
  cli.add_option("--report", report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
  CLI11_PARSE(cli, argc, argv);

  try {
    if (repeat < 1) throw std::invalid_argument(fmt::format("--repeat is {}: expected at least 1", repeat));
    if (workers.empty() || *std::min_element(workers.begin(), workers.end()) < 1) {
      throw std::invalid_argument("--workers: expected worker counts >= 1");
    }
    std::sort(workers.begin(), workers.end());
    const tessera::connect4::Board board = tessera::connect4::Board::from_moves(position);
    std::cout << fmt::format("load average before: {}\n", load_average());

    std::vector<Row> rows;
    std::vector<Measure> measures;
    const auto add = [&](const std::string& app, std::int64_t size, const Measure& measure) {
      for (const WorkPoolScheme scheme : {WorkPoolScheme::static_assignment, WorkPoolScheme::dynamic}) {
        for (const std::size_t w : workers) {
          rows.push_back(Row{app, size, scheme, w, {}, false});
          measures.push_back(measure);
        }
      }
    };
    for (const int lookahead : lookaheads) add("connect4", lookahead, connect4_measure(board, lookahead));
    const auto octree_work = std::make_shared<std::vector<tessera::octree::Particle>>();
    for (const std::int64_t n : particle_counts) add("octree", n, octree_measure(n, leaf_size, octree_work));

    for (int r = 0; r < repeat; ++r) {
      for (std::size_t i = 0; i < rows.size(); ++i) {
        Row& row = rows[i];
        const WorkPoolRun run = measures[i](row.scheme, row.workers);
        if (!row.measured || run.wall_seconds < row.best.wall_seconds) row.best = run;
        row.measured = true;
      }
    }

    std::cout << fmt::format("{:9} {:>8} {:8} {:>7} {:>10} {:>12} {:>10} {:>9} {:>9}\n", "app", "size", "scheme",
                             "workers", "tasks", "tasks/ms", "peak_tasks", "cpu_s", "wall_s");
    nlohmann::ordered_json json_rows = nlohmann::ordered_json::array();
    for (const Row& row : rows) {
      std::cout << fmt::format("{:9} {:>8} {:8} {:>7} {:>10} {:>12.0f} {:>10} {:>9.4f} {:>9.4f}\n", row.app, row.size,
                               to_string(row.scheme), row.workers, row.best.tasks, row.tasks_per_ms(),
                               row.best.peak_tasks, row.best.cpu_seconds, row.best.wall_seconds);
      json_rows.push_back(nlohmann::ordered_json{{"app", row.app},
                                                 {"size", row.size},
                                                 {"scheme", to_string(row.scheme)},
                                                 {"workers", row.workers},
                                                 {"tasks_per_ms", row.tasks_per_ms()},
                                                 {"peak_tasks", row.best.peak_tasks},
                                                 {"cpu_s", row.best.cpu_seconds},
                                                 {"wall_s", row.best.wall_seconds}});
    }
    print_ratios(rows, workers);
    std::cout << fmt::format("load average after: {}\n", load_average());
    if (report == "json") {
      std::cout << nlohmann::ordered_json{{"benchmark", "workpool"}, {"rows", json_rows}}.dump() << "\n";
    }
  } catch (const std::exception& error) {
    std::cerr << "tessera-bench-workpool: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
