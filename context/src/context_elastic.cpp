// Context's elastic runs: which shrink is due at a phase end, and carrying it out
// (context/elastic.hpp).
#include <tessera/tessera.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace tessera {
namespace {

// Rank 0's control-file lines, the same on every rank after this (one broadcast per phase end).
std::vector<std::string> read_control(Runtime& rt, const std::string& path) {
  std::string text;
  if (rt.rank() == 0) {
    std::error_code error;
    if (std::filesystem::exists(path, error)) {
      std::ifstream in(path);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      std::filesystem::remove(path, error);
      if (error) rt.log().warn("--tessera_elastic_control={}: read, but could not remove it: {}", path, error.message());
    }
  }
  std::uint64_t length = text.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, rt.comm());
  text.resize(length);
  if (length > 0) MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, rt.comm());
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

}  // namespace

void Context::request_shrink(std::vector<int> ranks) {
  std::vector<int> seen;
  for (int r : ranks) {
    if (r < 0) throw Error(fmt::format("request_shrink: rank {} is not a rank", r));
    if (std::find(seen.begin(), seen.end(), r) != seen.end()) throw Error(fmt::format("request_shrink: rank {} is named twice", r));
    seen.push_back(r);
  }
  if (ranks.empty()) throw Error("request_shrink: no rank named");
  shrink_requests_.push_back(std::move(ranks));
}

std::vector<int> Context::due_shrink(std::int64_t phase) {
  // Every source below is the same on every rank (the control file after its broadcast), so
  // every rank refuses and accepts alike; rank 0 says why.
  struct Due {
    ElasticRequest request;
    std::string source;
  };
  std::vector<Due> due;
  for (auto& ranks : shrink_requests_) {
    ElasticRequest request;
    request.ranks = std::move(ranks);
    request.text = fmt::format("shrink {}", fmt::join(request.ranks, ","));
    due.push_back({std::move(request), "from code"});
  }
  shrink_requests_.clear();
  const auto [first, last] = elastic_flags_.schedule().equal_range(phase);
  for (auto it = first; it != last; ++it) due.push_back({it->second, "--tessera_elastic_plan"});
  if (!elastic_flags_.control.empty())
    for (const std::string& line : read_control(*runtime_, elastic_flags_.control)) {
      try {
        due.push_back({parse_elastic_request(line), "--tessera_elastic_control"});
      } catch (const Error& e) {
        if (runtime_->rank() == 0) runtime_->log().warn("tessera elastic: refused {} ({}): {}", line, elastic_flags_.control, e.what());
      }
    }

  std::vector<int> leaving;
  const int size = runtime_->size();
  for (const Due& d : due) {
    std::string refused;
    if (d.request.kind == ElasticRequest::Kind::expand) {
      refused = "expand is not built: new processes cannot join a running job in this version";
    } else if (runtime_->tracer() != nullptr) {
      refused = "a trace (--tessera_trace) cannot follow a change of the rank set yet";
    } else if (lb_data_) {
      refused = "LB data (--tessera_lb_data) cannot follow a change of the rank set yet";
    } else {
      // The rank set's own rules (RankChange::shrink: inside the run, once each, not every rank),
      // then the one this version adds.
      std::vector<int> next = leaving;
      next.insert(next.end(), d.request.ranks.begin(), d.request.ranks.end());
      try {
        RankChange::shrink(size, next);
      } catch (const std::invalid_argument& e) {
        refused = e.what();
      }
      if (refused.empty() && std::find(next.begin(), next.end(), 0) != next.end())
        refused = "rank 0 cannot leave (it reads the control file and writes the run's outputs)";
      if (refused.empty()) leaving = std::move(next);
    }
    if (!refused.empty() && runtime_->rank() == 0)
      runtime_->log().warn("tessera elastic: phase {}: refused '{}' ({}): {}; the run goes on with {} ranks", phase,
                           d.request.text, d.source, refused, size);
  }
  std::sort(leaving.begin(), leaving.end());
  return leaving;
}

void Context::shrink(std::int64_t phase, const std::vector<int>& leaving, double decision_s) {
  const RankChange change = RankChange::shrink(runtime_->size(), leaving);
  RescaleReport report;
  report.phase = phase;
  report.old_size = change.old_size;
  report.new_size = change.new_size;
  report.leaving = leaving;
  if (const auto& balanced = lb_manager_->last_report()) {
    report.evacuation_s = balanced->strategy_s + balanced->migration_s;
    report.migrations = balanced->migrations;
  }
  const int old_rank = runtime_->rank();
  const RescaleTimes times = runtime_->rescale(change);
  // The application's communicator follows, in the same order (every old rank takes part).
  MPI_Comm next = MPI_COMM_NULL;
  MPI_Comm_split(app_comm_, change.leaves(old_rank) ? MPI_UNDEFINED : 0, old_rank, &next);
  if (owns_app_comm_) MPI_Comm_free(&app_comm_);
  app_comm_ = next;
  owns_app_comm_ = next != MPI_COMM_NULL;
  if (runtime_->left()) return;
  // The slowest rank's stages, as a balancing reports its own.
  using Stages = std::array<double, 3>;
  const Stages slowest = runtime_->collectives().allreduce(
      Stages{decision_s, times.handover_s, times.cut_s}, [](Stages a, const Stages& b) {
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::max(a[i], b[i]);
        return a;
      });
  report.decision_s = slowest[0];
  report.quiescence_s = slowest[1];
  report.cut_s = slowest[2];
  last_rescale_ = report;
  rescaled_at_ = wall_time();
  if (runtime_->rank() != 0) return;
  fmt::print("{}\n", report.line());
  std::fflush(stdout);
  if (!lb_flags_.stats_file.empty()) {
    std::ofstream out(lb_flags_.stats_file, std::ios::app);
    if (!(out << report.json() << '\n'))
      fatal("--tessera_lb_stats_file={}: cannot append the rescale's statistics (expected a writable file)", lb_flags_.stats_file);
  }
}

}  // namespace tessera
