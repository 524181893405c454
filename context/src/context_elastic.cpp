// Context's elastic runs: which shrink is due at a phase end, and carrying it out
// (context/elastic.hpp).
#include <tessera/tessera.hpp>

#include "pending_expand.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include <unistd.h>

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

int Context::mpi_thread_level(int argc, char** argv) {
  std::vector<char*> copy(argv, argv + argc);
  copy.push_back(nullptr);
  int count = argc;
  // Every group the Context parses, so that no other group's flag reads as unknown.
  ContextOptions flags;
  std::vector<FlagGroup*> groups{&flags.runtime, &flags.trace};
  for (FlagGroup* group : flags.layer_flag_groups()) groups.push_back(group);
  try {
    parse_flags(count, copy.data(), groups);
  } catch (const Error&) {
    return MPI_THREAD_SINGLE;
  }
  const bool multiple = std::any_of(groups.begin(), groups.end(), [](const FlagGroup* g) { return g->needs_mpi_thread_multiple(); });
  return multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
}

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

void Context::request_expand(int processes, std::string host) {
  if (processes < 1) throw Error(fmt::format("request_expand: {} processes: expected at least 1", processes));
  expand_requests_.emplace_back(processes, std::move(host));
}

std::string Context::expand_refusal(int processes, const std::string& host) const {
  if (!join_state_) return "this program hands no state to new processes (Context::set_join_state), so none can join";
  // The auto interval decides from what each rank has learned; a new process has learned nothing.
  if (options_.lb.automatic()) return "--tessera_lb_interval=auto cannot follow an expand yet (expected a fixed interval)";
  // Open MPI connects to a spawned job over a BTL that reaches other jobs' processes; shared
  // memory alone answers "Unreachable" in the new processes' MPI_Init, which ends the whole job.
  if (const char* btl = std::getenv("OMPI_MCA_btl"); btl != nullptr && std::string_view(btl).find("tcp") == std::string_view::npos)
    return fmt::format("Open MPI's BTLs here ({}) cannot reach new processes: add tcp (--mca btl self,vader,tcp)", btl);
  int* universe = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &found);
  if (found && universe != nullptr && processes_started_ + processes > *universe)
    return fmt::format("the job was given {} slots (MPI_UNIVERSE_SIZE) and has started {} processes, those that left included",
                       *universe, processes_started_);
  if (!host.empty() && std::find(job_hosts_.begin(), job_hosts_.end(), host) == job_hosts_.end())
    return fmt::format("host {} is not one the job's processes started on ({}); a spawn there is not tried: Open MPI 4.1 "
                       "hangs after one it cannot place",
                       host, fmt::join(job_hosts_, ", "));
  return {};
}

void Context::learn_job() {
  if (const std::span<const std::byte> handed = runtime_->joined_state("context"); !handed.empty()) {
    // "PROCESSES HOST HOST ...", as expand() wrote it.
    std::istringstream in(std::string(reinterpret_cast<const char*>(handed.data()), handed.size()));
    in >> processes_started_;
    for (std::string host; in >> host;) job_hosts_.push_back(host);
    return;
  }
  MPI_Comm_size(MPI_COMM_WORLD, &processes_started_);
  std::array<char, 256> mine{};
  gethostname(mine.data(), mine.size() - 1);
  std::vector<char> all(mine.size() * static_cast<std::size_t>(runtime_->size()));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(), static_cast<int>(mine.size()), MPI_CHAR,
                runtime_->comm());
  for (std::size_t at = 0; at < all.size(); at += mine.size()) {
    std::string host(all.data() + at);
    if (std::find(job_hosts_.begin(), job_hosts_.end(), host) == job_hosts_.end()) job_hosts_.push_back(std::move(host));
  }
}

Context::DueRescale Context::due_rescale(std::int64_t phase) {
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
  for (auto& [processes, host] : expand_requests_) {
    ElasticRequest request;
    request.kind = ElasticRequest::Kind::expand;
    request.processes = processes;
    request.host = std::move(host);
    request.text = fmt::format("expand {}{}{}", processes, request.host.empty() ? "" : " ", request.host);
    due.push_back({std::move(request), "from code"});
  }
  expand_requests_.clear();
  const auto [first, last] = options_.elastic.schedule().equal_range(phase);
  for (auto it = first; it != last; ++it) due.push_back({it->second, "--tessera_elastic_plan"});
  if (!options_.elastic.control.empty())
    for (const std::string& line : read_control(*runtime_, options_.elastic.control)) {
      try {
        due.push_back({parse_elastic_request(line), "--tessera_elastic_control"});
      } catch (const Error& e) {
        if (runtime_->rank() == 0) runtime_->log().warn("tessera elastic: refused {} ({}): {}", line, options_.elastic.control, e.what());
      }
    }

  DueRescale result;
  const int size = runtime_->size();
  for (const Due& d : due) {
    std::string refused;
    if (pending_expand_) {
      refused = "an expand's processes are still starting (--tessera_elastic_spawn=background); ask again after it";
    } else if (d.request.kind == ElasticRequest::Kind::expand) {
      if (!result.leaving.empty() || result.joining > 0) refused = "one rescale per phase end, and this one already has one";
      else refused = expand_refusal(d.request.processes, d.request.host);
      if (refused.empty()) {
        result.joining = d.request.processes;
        result.host = d.request.host;
      }
    } else if (result.joining > 0) {
      refused = "one rescale per phase end, and this one already has an expand";
    } else {
      // The rank set's own rules (RankChange::shrink: inside the run, once each, not every rank),
      // then the one this version adds.
      std::vector<int> next = result.leaving;
      next.insert(next.end(), d.request.ranks.begin(), d.request.ranks.end());
      try {
        RankChange::shrink(size, next);
      } catch (const std::invalid_argument& e) {
        refused = e.what();
      }
      if (refused.empty() && std::find(next.begin(), next.end(), 0) != next.end())
        refused = "rank 0 cannot leave (it reads the control file and writes the run's outputs)";
      if (refused.empty()) result.leaving = std::move(next);
    }
    if (!refused.empty() && runtime_->rank() == 0)
      runtime_->log().warn("tessera elastic: phase {}: refused '{}' ({}): {}; the run goes on with {} ranks", phase,
                           d.request.text, d.source, refused, size);
  }
  std::sort(result.leaving.begin(), result.leaving.end());
  return result;
}

void Context::publish(const RescaleReport& report) {
  rescale_log_.push_back(report);
  rescaled_at_ = wall_time();
  if (Tracer* tracer = runtime_->tracer())
    tracer->async_begin("rescale", "first phase after a rescale", static_cast<std::uint64_t>(runtime_->rescales()));
  if (runtime_->rank() != 0) return;
  fmt::print("{}\n", report.line());
  std::fflush(stdout);
  if (!options_.lb.stats_file.empty()) {
    std::ofstream out(options_.lb.stats_file, std::ios::app);
    if (!(out << report.json() << '\n'))
      fatal("--tessera_lb_stats_file={}: cannot append the rescale's statistics (expected a writable file)", options_.lb.stats_file);
  }
}

void Context::close_rank_set() {
  if (!lb_data_) return;
  lb_data_->set_migrations(lb_manager_->migrated_bytes(), lb_manager_->migration_seconds());
  try {
    lb_data_->write();
  } catch (const std::exception& e) {
    fatal("--tessera_lb_data: at rescale {}: {}", runtime_->rescales() + 1, e.what());
  }
}

void Context::open_rank_set() {
  if (!lb_data_) return;
  if (runtime_->left()) {
    lb_data_.reset();
    return;
  }
  lb_data_ = std::make_unique<lb::LbDataOutput>(options_.lb_data, runtime_->rank(), &runtime_->node_map(),
                                                [phases = phases_] { return phases->now(); }, runtime_->rescales());
  lb_data_->start_migrations_at(lb_manager_->migrated_bytes(), lb_manager_->migration_seconds());
}

void Context::shrink(std::int64_t phase, const std::vector<int>& leaving, double decision_s) {
  const RankChange change = RankChange::shrink(runtime_->size(), leaving);
  RescaleReport report(phase, change);
  report.leaving = leaving;
  if (const auto& balanced = lb_manager_->last_report()) {
    report.evacuation_s = balanced->strategy_s + balanced->migration_s;
    report.migrations = balanced->migrations;
  }
  const int old_rank = runtime_->rank();
  close_rank_set();
  const RescaleTimes times = runtime_->rescale(change);
  open_rank_set();
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
  publish(report);
}

namespace {

// This process's command line, to start the same program again (Linux's /proc).
std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\0', start);
    args.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return args;
}

}  // namespace

void Context::PendingExpand::run() {
  const double start = wall_time();
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  MPI_Info info = MPI_INFO_NULL;
  if (!host.empty()) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", host.c_str());
  }
  MPI_Comm joiners = MPI_COMM_NULL;
  std::vector<int> codes(static_cast<std::size_t>(joining), MPI_SUCCESS);
  error = MPI_Comm_spawn(program.c_str(), argv.data(), joining, info, 0, spawn_comm, &joiners, codes.data());
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  if (error != MPI_SUCCESS) {
    std::array<char, MPI_MAX_ERROR_STRING> text{};
    int length = 0;
    MPI_Error_string(error, text.data(), &length);
    error_text.assign(text.data(), static_cast<std::size_t>(length));
  } else {
    MPI_Intercomm_merge(joiners, 0, &merged);
    MPI_Comm_free(&joiners);
    MPI_Comm_dup(merged, &app);
  }
  spawn_s = wall_time() - start;
  done.store(true, std::memory_order_release);
}

void Context::expand(std::int64_t phase, int joining, const std::string& host, double decision_s) {
  auto pending = std::make_unique<PendingExpand>();
  pending->phase = phase;
  pending->joining = joining;
  pending->host = host;
  pending->decision_s = decision_s;
  // The same program and arguments, marked so its runtime joins this job instead of starting one.
  std::vector<std::string> args = own_command_line();
  std::error_code error;
  pending->program = std::filesystem::read_symlink("/proc/self/exe", error).string();
  if (args.empty() || pending->program.empty()) fatal("tessera elastic: expand: this process's command line cannot be read from /proc/self");
  pending->args.assign(args.begin() + 1, args.end());
  if (std::find(pending->args.begin(), pending->args.end(), "--tessera_elastic_joined") == pending->args.end())
    pending->args.emplace_back("--tessera_elastic_joined");
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  pending->background = options_.elastic.spawn == "background" && level == MPI_THREAD_MULTIPLE;
  if (options_.elastic.spawn == "background" && !pending->background && runtime_->rank() == 0)
    runtime_->log().warn("tessera elastic: phase {}: expand {} spawns inline: MPI was initialized without MPI_THREAD_MULTIPLE "
                         "(by the program, before the Context), which a background spawn needs", phase, joining);
  MPI_Comm_dup(runtime_->comm(), &pending->spawn_comm);
  MPI_Comm_set_errhandler(pending->spawn_comm, MPI_ERRORS_RETURN);
  Tracer* tracer = runtime_->tracer();
  if (pending->background) {
    // The trace's spawn slice is async: the phases run on this thread meanwhile.
    if (tracer) tracer->async_begin("rescale", "spawn", static_cast<std::uint64_t>(runtime_->rescales() + 1));
    pending->helper = std::thread([p = pending.get()] { p->run(); });
    pending_expand_ = std::move(pending);
    return;
  }
  {
    TraceSlice spawn_slice(tracer, "spawn");
    pending->run();
  }
  pending_expand_ = std::move(pending);
  finish_expand(phase);
}

bool Context::expand_spawned() {
  int spawned = pending_expand_->done.load(std::memory_order_acquire) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &spawned, 1, MPI_INT, MPI_MIN, runtime_->comm());
  if (spawned == 0) ++pending_expand_->overlapped_phases;
  return spawned != 0;
}

void Context::finish_expand(std::int64_t phase) {
  const std::unique_ptr<PendingExpand> pending = std::move(pending_expand_);
  if (pending->helper.joinable()) pending->helper.join();
  MPI_Comm_free(&pending->spawn_comm);
  if (pending->background)
    if (Tracer* tracer = runtime_->tracer()) tracer->async_end("rescale", "spawn", static_cast<std::uint64_t>(runtime_->rescales() + 1));
  const RankChange change = RankChange::expand(runtime_->size(), pending->joining);
  if (pending->error != MPI_SUCCESS) {
    if (runtime_->rank() == 0)
      runtime_->log().warn("tessera elastic: phase {}: expand {} failed: MPI_Comm_spawn: {}; the run goes on with {} ranks",
                           pending->phase, pending->joining, pending->error_text, change.old_size);
    return;
  }
  RescaleReport report(phase, change);
  report.background = pending->background;
  report.overlapped_phases = pending->overlapped_phases;
  JoinState handed;
  processes_started_ += pending->joining;
  if (runtime_->rank() == 0) {
    handed["app"] = join_state_();
    const std::string job = fmt::format("{} {}", processes_started_, fmt::join(job_hosts_, " "));
    const auto* raw = reinterpret_cast<const std::byte*>(job.data());
    handed["context"].assign(raw, raw + job.size());
  }
  close_rank_set();
  const RescaleTimes times = runtime_->rescale(change, pending->merged, std::move(handed));
  open_rank_set();
  // The slowest old rank's stages (over the old ranks' communicator: the new processes have no
  // stages to compare), then the application's communicator is the one made beside the merge.
  std::array<double, 4> stages{pending->decision_s, pending->spawn_s, times.handover_s, times.cut_s};
  MPI_Allreduce(MPI_IN_PLACE, stages.data(), static_cast<int>(stages.size()), MPI_DOUBLE, MPI_MAX, app_comm_);
  if (owns_app_comm_) MPI_Comm_free(&app_comm_);
  app_comm_ = pending->app;
  owns_app_comm_ = true;
  if (!options_.lb.name.empty()) lb_manager_->request();  // the next phase end fills the new ranks
  report.decision_s = stages[0];
  report.spawn_s = stages[1];
  report.quiescence_s = stages[2];
  report.cut_s = stages[3];
  publish(report);
}

void Context::abandon_expand() {
  const std::unique_ptr<PendingExpand> pending = std::move(pending_expand_);
  if (pending->helper.joinable()) pending->helper.join();
  MPI_Comm_free(&pending->spawn_comm);
  if (pending->error != MPI_SUCCESS) return;
  if (runtime_->rank() == 0)
    runtime_->log().warn("tessera elastic: the run ended while expand {} (phase {}) was starting its processes; they end without joining",
                         pending->joining, pending->phase);
  Runtime::turn_away(pending->merged, runtime_->size(), runtime_->rank());
  MPI_Comm_free(&pending->merged);
  MPI_Comm_free(&pending->app);
}

}  // namespace tessera
