#include <tessera/tessera.hpp>

#include "pending_expand.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <tessera/lb/advisor.hpp>
#include <tessera/lb/lb_data_io.hpp>
#include <tessera/lb/report.hpp>

namespace tessera {

Context::Context(int& argc, char**& argv, MPI_Comm app_comm) { start(argc, argv, app_comm); }

Context::Context(std::span<const std::string> args, MPI_Comm app_comm) {
  // Context removes what it parses from argv, so the strings live here until it has.
  std::vector<std::string> storage = args.empty() ? std::vector<std::string>{"tessera"} : std::vector<std::string>(args.begin(), args.end());
  std::vector<char*> pointers;
  for (std::string& s : storage) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  int argc = static_cast<int>(storage.size());
  char** argv = pointers.data();
  start(argc, argv, app_comm);
  if (argc > 1) runtime_->stop(std::string("unexpected argument '") + argv[1] + "': expected only --tessera_ flags here");
}

Context::Context(const ContextOptions& preset) {
  options_ = preset;
  std::string name = "tessera";
  char* args[] = {name.data(), nullptr};
  int argc = 1;
  char** argv = args;
  start(argc, argv, preset.app_comm, &preset);
}

void Context::start(int& argc, char**& argv, MPI_Comm app_comm, const ContextOptions* preset) {
  program_ = argc > 0 && argv[0] != nullptr ? std::filesystem::path(argv[0]).filename().string() : "tessera";
  RuntimeOptions options;
  options.app_comm = app_comm;
  if (preset) {
    options.flags = &preset->runtime;
    options.trace_flags = &preset->trace;
  }
  options.flag_groups = options_.layer_flag_groups();
  runtime_ = std::make_unique<Runtime>(argc, argv, std::move(options));
  app_comm_ = app_comm != MPI_COMM_NULL ? app_comm : MPI_COMM_WORLD;
  if (runtime_->joined()) {
    // Started by an expand (context_elastic.cpp): the application's communicator was made at
    // the join, beside the runtime's, as the running ranks made theirs.
    app_comm_ = runtime_->take_joined_app_comm();
    owns_app_comm_ = true;
  }
  learn_job();
  help_shown_ = runtime_->help_shown() || options_.lb.help_lb;
  if (options_.lb.help_lb && runtime_->rank() == 0) {
    fmt::print("{}", lb::Registry::builtin().help());
    std::fflush(stdout);
  }
  termination_ = std::make_unique<Termination>(*runtime_, options_.termination);
  phases_ = &collections::PhaseManager::install(*runtime_, options_.collections.clock());
  steal_ = &collections::steal::StealService::install(*runtime_, options_.steal.options());
  if (!options_.checkpoint.dir.empty()) check_checkpoint_dir();
  if (!options_.checkpoint.restart.empty()) {
    try {
      restart_ = collections::checkpoint::RestartImage::open(*runtime_, options_.checkpoint.restart, program_);
    } catch (const Error& e) {
      runtime_->stop(std::string("--tessera_restart: ") + e.what());  // the same message on every rank
    }
    phases_->resume_at(restart_->phase());
    phases_->set_restart(restart_);
  }
  lb_manager_ = std::make_unique<lb::LbManager>(*runtime_, *termination_, *phases_, options_.lb);
  // As the running ranks did: with a strategy in the flags, the next phase end fills this rank.
  if (runtime_->joined() && !options_.lb.name.empty()) lb_manager_->request();
  if (Tracer* tracer = runtime_->tracer())
    tracer->async_begin("phase", fmt::format("phase {}", phases_->phase()), static_cast<std::uint64_t>(phases_->phase()));
  if (options_.lb_data.recording()) {
    // A joined process records from the rank set it joined (LbDataFlags::stem).
    lb_data_ = std::make_unique<lb::LbDataOutput>(options_.lb_data, runtime_->rank(), &runtime_->node_map(),
                                                  [phases = phases_] { return phases->now(); }, runtime_->rescales());
  }
  // The report is written at the very end: find out now, not after the run, that it cannot be.
  if (!options_.lb_data.report.empty() && runtime_->rank() == 0 && !std::ofstream(options_.lb_data.report, std::ios::app))
    fatal("--tessera_lb_report={}: cannot open the file for writing (expected a writable path)", options_.lb_data.report);
}

Context::~Context() {
  const FinalizeStatus status = finalize();
  // A failure the program did not ask about: printed by a rank that met it, never thrown.
  if (!status.ok && status.rank == runtime_->rank()) std::fprintf(stderr, "tessera: %s\n", status.message.c_str());
  lb_manager_.reset();
  termination_.reset();
  if (owns_app_comm_ && app_comm_ != MPI_COMM_NULL) MPI_Comm_free(&app_comm_);
}

FinalizeStatus Context::finalize() {
  if (finalized_) return *finalized_;
  if (runtime_->left()) return *(finalized_ = FinalizeStatus{});  // its outputs went with the rank set
  if (pending_expand_) abandon_expand();
  if (Tracer* tracer = runtime_->tracer()) {
    const std::int64_t phase = phases_->phase();
    tracer->async_end("phase", fmt::format("phase {}", phase), static_cast<std::uint64_t>(phase));
  }
  std::string failure;
  if (lb_data_) {
    lb_data_->set_migrations(lb_manager_->migrated_bytes(), lb_manager_->migration_seconds());
    try {
      lb_data_->write();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  // Every rank's file is complete (or some rank failed) once the verdict is agreed; the report
  // and the advice read every rank's file, so they run only when every rank wrote its own.
  const auto agree = [this](std::string local) {
    const int first = runtime_->collectives().allreduce(local.empty() ? runtime_->size() : runtime_->rank(), op::min{});
    if (first == runtime_->size()) return FinalizeStatus{};
    if (first != runtime_->rank()) return FinalizeStatus{false, first, fmt::format("rank {} could not finish the run's output", first)};
    return FinalizeStatus{false, first, local};
  };
  FinalizeStatus status = agree(failure);
  if (status.ok && (!options_.lb_data.report.empty() || options_.lb_data.advise)) {
    std::string written;
    if (runtime_->rank() == 0 && !options_.lb_data.report.empty()) written = write_report();
    if (runtime_->rank() == 0 && written.empty() && options_.lb_data.advise) written = print_advice();
    status = agree(written);
  }
  finalized_ = status;
  return status;
}

namespace {

// An elastic run's rescales as the LB report's Rescales section lists them.
std::vector<lb::ReportRescale> report_rescales(const std::vector<RescaleReport>& log) {
  std::vector<lb::ReportRescale> rows;
  for (const RescaleReport& r : log) {
    std::string change = r.joining > 0
                             ? fmt::format("expand {} -> {} ranks ({} process(es) joined)", r.old_size, r.new_size, r.joining)
                             : fmt::format("shrink {} -> {} ranks (rank(s) {} left)", r.old_size, r.new_size,
                                           fmt::join(r.leaving, ","));
    rows.push_back(lb::ReportRescale{r.phase, std::move(change), r.decision_s, r.evacuation_s, r.spawn_s, r.quiescence_s,
                                     r.cut_s, r.first_phase_s, r.migrations});
  }
  return rows;
}

}  // namespace

std::string Context::write_report() const {
  // An elastic run wrote a data set per rank set: a report of each, FILE for the first and
  // FILE's name with -rescale-K before its extension for the K-th after it.
  const int sets = runtime_->rescales() + 1;
  const std::filesystem::path first(options_.lb_data.report);
  const auto report_of = [&first](int set) {
    if (set == 0) return first;
    return first.parent_path() / (first.stem().string() + "-rescale-" + std::to_string(set) + first.extension().string());
  };
  try {
    for (int set = 0; set < sets; ++set) {
      lb::ReportOptions options;
      options.title = "Tessera LB report: " + options_.lb_data.stem(set).string();
      const lb::LbData data = lb::read_lb_data(options_.lb_data.stem(set));
      lb::CostModel cost;
      cost.fixed_loads_counted = lb_manager_->counts_fixed_loads();
      lb::add_advice(data, 10, cost, options);
      options.rescales = report_rescales(rescale_log_);
      if (sets > 1) {
        std::vector<std::string> others;
        for (int k = 0; k < sets; ++k)
          if (k != set) others.push_back(report_of(k).filename().string());
        const auto ids = data.phase_ids();
        options.rank_set_note = fmt::format("Rank set {} of the run's {} (its rank count changed at each rescale below): "
                                            "{} ranks, phases {} to {}. The other rank sets' reports: {}.",
                                            set, sets, data.ranks.size(), ids.empty() ? -1 : ids.front(),
                                            ids.empty() ? -1 : ids.back(), fmt::join(others, ", "));
      }
      lb::write_report(data, options, report_of(set));
    }
  } catch (const std::exception& e) {
    return fmt::format("--tessera_lb_report={}: {}", options_.lb_data.report, e.what());
  }
  return {};
}

collections::PhaseRecord Context::phase_end() {
  // Before the phase's messages are awaited: one for a collection this joined process never
  // creates would be held for good.
  tessera::detail::hooks(*runtime_).require_joined_targets();
  Tracer* tracer = runtime_->tracer();
  collections::PhaseRecord record;
  {
    TraceSlice slice(tracer, "phase_end");
    record = phases_->end_phase();
    if (tracer) tracer->async_end("phase", fmt::format("phase {}", record.phase), static_cast<std::uint64_t>(record.phase));
    if (lb_data_) lb_data_->add(record);
    if (!rescale_log_.empty() && rescaled_at_ >= 0.0) {
      rescale_log_.back().first_phase_s = wall_time() - rescaled_at_;
      rescaled_at_ = -1.0;
      if (tracer)
        tracer->async_end("rescale", "first phase after a rescale", static_cast<std::uint64_t>(runtime_->rescales()));
    }
    const double decision_start = wall_time();
    const std::int64_t decision_start_ns = trace_clock_ns();
    const DueRescale due = due_rescale(record.phase);
    const double decision_s = wall_time() - decision_start;
    const bool rescaling = !due.leaving.empty() || due.joining > 0;
    // A rescale's stages, as the trace shows them: decision, evacuation (the balancing that empties
    // the leaving ranks), then inside "rescale" the spawn, quiescence and the cut or merge.
    if (tracer && rescaling) tracer->complete("decision", decision_start_ns, trace_clock_ns());
    TraceSlice lb(tracer, due.leaving.empty() ? "lb" : "evacuation");
    lb_manager_->phase_end(record, due.leaving);
    lb.end();
    // An expand spawning in the background completes at the first phase end every rank's spawn
    // has returned by.
    const bool expanding = !rescaling && pending_expand_ && expand_spawned();
    TraceSlice rescale(rescaling || expanding ? tracer : nullptr, "rescale");
    if (!due.leaving.empty()) shrink(record.phase, due.leaving, decision_s);
    if (due.joining > 0) expand(record.phase, due.joining, due.host, decision_s);
    if (expanding) finish_expand(record.phase);
    rescale.end();
    if (runtime_->left()) return record;
  }
  if (options_.checkpoint.interval > 0 && (record.phase + 1) % options_.checkpoint.interval == 0) {
    TraceSlice slice(tracer, "checkpoint");
    const std::vector<std::byte> state = checkpoint_state_ ? checkpoint_state_() : std::vector<std::byte>();
    checkpoint_now(std::span<const std::byte>(state));
  }
  if (lb_data_) lb_data_->phase_done();
  if (tracer) {
    const std::int64_t next = phases_->phase();
    tracer->async_begin("phase", fmt::format("phase {}", next), static_cast<std::uint64_t>(next));
    tracer->write_now();  // between phases, outside any handler: the one safe time to write
  }
  return record;
}

}  // namespace tessera
